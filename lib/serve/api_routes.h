#pragma once
// The routes of each API, registered on the service (serve/service.h) at its start:
//   operations     GET /health, /ready, /metrics
//   LibreTranslate POST /translate, GET /languages (and /health above)
//   OpenNMT-py     POST /translator/translate, GET /translator/models, /translator/health
//   native         POST /v1/translate, /v1/score, /v1/align; GET /v1/pairs
// Marian's WebSocket at /translate is the service's own (Service::websocket_message).

namespace rnnsearch::serve {

class Service;

void add_operation_routes(Service& service);
void add_libretranslate_routes(Service& service);
void add_opennmt_routes(Service& service);
void add_native_routes(Service& service);

}  // namespace rnnsearch::serve
