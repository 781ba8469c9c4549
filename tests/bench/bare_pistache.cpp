// The floor for the gateway benchmark: Debian's Pistache 0.0.5 answering every request with a fixed
// JSON body, nothing else. tests/bench/gateway.sh runs it next to the host and nginx.
//
//   bench-bare-pistache 127.0.0.1:9090          (port 0 picks a free one)
//   bench-bare-pistache 127.0.0.1:9090 --stock  Pistache's own Connection handling, for comparison
//
// By default it answers keep-alive by HTTP/1.1 rules, as the host does. With --stock it leaves
// Pistache 0.0.5's choice alone: `Connection: Close` on every answer to a request without a
// Connection header (wrk's default), so such clients reconnect for every request. Either way it
// keeps Pistache's other trap: of requests pipelined in one read it answers the first only.
//
// Prints `listening 127.0.0.1:PORT` once bound; stops on SIGINT/SIGTERM.
#include <pistache/endpoint.h>
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

using namespace Pistache;

namespace {

bool stock_connection = false;  // --stock

class FixedHandler : public Http::Handler {
public:
    HTTP_PROTOTYPE(FixedHandler)

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        // Pistache 0.0.5 puts `Connection: Close` on the writer whenever the request carries no
        // Connection header; unless --stock, answer by HTTP/1.1 rules instead.
        auto asked = request.headers().tryGet<Http::Header::Connection>();
        bool close = asked ? asked->control() == Http::ConnectionControl::Close
                           : request.version() == Http::Version::Http10;
        if (!close && !stock_connection) {
            if (response.headers().tryGet<Http::Header::Connection>())
                response.headers().remove<Http::Header::Connection>();
            response.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
        }
        response.headers().add<Http::Header::ContentType>(MIME(Application, Json));
        response.send(Http::Code::Ok, "{\"notes\":[]}");
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[2]) == "--stock") {
        stock_connection = true;
    } else if (argc != 2) {
        std::fprintf(stderr, "usage: %s HOST:PORT [--stock]\n", argv[0]);
        return 2;
    }
    // Block the stop signals in every thread (Pistache's included), then wait for them here.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);

    try {
        Address address{std::string(argv[1])};
        Http::Endpoint server{address};
        server.init(
            Http::Endpoint::options().threads(2).flags(Tcp::Options::ReuseAddr).backlog(1024));
        server.setHandler(Http::make_handler<FixedHandler>());
        server.serveThreaded();
        std::printf("listening %s:%s\n", address.host().c_str(),
                    server.getPort().toString().c_str());
        std::fflush(stdout);

        int sig = 0;
        sigwait(&stop, &sig);
        server.shutdown();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench-bare-pistache: %s\n", e.what());
        return 1;
    }
    return 0;
}
