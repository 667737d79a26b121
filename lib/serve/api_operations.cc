// GET /health (alive), /ready (models loaded, not draining) and /metrics (Prometheus).
#include "serve/api_routes.h"
#include "serve/reply.h"
#include "serve/service.h"

namespace rnnsearch::serve {

void add_operation_routes(Service& service) {
  service.add_route("GET", "/health", [](const HttpRequest&, CancelFlag, Respond respond) {
    respond(json_reply({{"status", "ok"}}));
  });
  service.add_route("GET", "/ready", [&service](const HttpRequest&, CancelFlag, Respond respond) {
    if (service.ready()) return respond(json_reply({{"status", "ready"}}));
    respond(json_reply({{"status", "draining"}}, 503));
  });
  service.add_route("GET", "/metrics", [&service](const HttpRequest&, CancelFlag, Respond respond) {
    HttpResponse reply;
    reply.content_type = "text/plain; version=0.0.4";
    reply.body = service.metrics_text();
    respond(std::move(reply));
  });
}

}  // namespace rnnsearch::serve
