#include "serve/reply.h"

#include "serve/json_fields.h"

namespace rnnsearch::serve {

HttpResponse json_reply(const nlohmann::json& body, int status) {
  HttpResponse reply;
  reply.status = status;
  reply.body = json_text(body);
  return reply;
}

HttpResponse error_reply(const RequestError& error) {
  HttpResponse reply;
  reply.status = error.status();
  reply.body = error_body(error.what());
  reply.headers = error.headers();
  return reply;
}

}  // namespace rnnsearch::serve
