#pragma once
// Building replies: JSON bodies, and the error reply of a RequestError.
#include <string>

#include <nlohmann/json.hpp>

#include "serve/http_server.h"
#include "serve/request_error.h"

namespace rnnsearch::serve {

HttpResponse json_reply(const nlohmann::json& body, int status = 200);
// {"error": message} with the error's status and headers.
HttpResponse error_reply(const RequestError& error);

}  // namespace rnnsearch::serve
