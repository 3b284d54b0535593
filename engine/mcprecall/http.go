package mcprecall

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ctxscope/engine/proxy"
)

// HTTPServer serves an MCP server over streamable HTTP on a loopback
// address, at a path that holds a secret: another local process that
// does not know the path cannot use it, and a web page cannot either
// (proxy.RefuseForeign).
type HTTPServer struct {
	ln   net.Listener
	srv  *http.Server
	path string
}

// ListenHTTP serves s on addr, which must be loopback, under
// /mcp/<token>/.
func ListenHTTP(s *mcp.Server, addr, token string) (*HTTPServer, error) {
	if err := proxy.CheckAddr(addr); err != nil {
		return nil, err
	}
	if len(token) < 32 {
		return nil, fmt.Errorf("mcp: the path's secret is too short")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mcp: listen on %s: %w", addr, err)
	}
	h := &HTTPServer{ln: ln, path: "/mcp/" + token}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute, MaxRequestBodyBytes: 1 << 20})
	h.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if proxy.RefuseForeign(w, r, "ctxscope mcp") {
				return
			}
			if r.URL.Path != h.path && !strings.HasPrefix(r.URL.Path, h.path+"/") {
				http.NotFound(w, r)
				return
			}
			mcpHandler.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 1 << 20,
	}
	go h.srv.Serve(ln)
	return h, nil
}

// URL is the endpoint an agent's MCP settings name.
func (h *HTTPServer) URL() string { return "http://" + h.ln.Addr().String() + h.path }

// Close stops the server.
func (h *HTTPServer) Close() error { return h.srv.Close() }
