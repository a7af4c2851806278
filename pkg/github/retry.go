package github

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Bounds of talking to the GitHub API: a response or a secondary rate limit must never hold a
// CI job for an hour, and a hostile or broken server must not fill the memory.
const (
	// maxRetryWait caps one wait, whatever Retry-After asks for.
	maxRetryWait = 60 * time.Second
	// maxRetryTotal caps all the waits of one request together.
	maxRetryTotal = 60 * time.Second
	// maxResponseBytes caps what is read of one response.
	maxResponseBytes = 8 << 20
)

// apiTransport is the GitHub client's own transport: eni-lint replaces http.DefaultTransport
// with one that refuses everything, since no input may open a connection.
func apiTransport() http.RoundTripper {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          10,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
	}
}

// authTransport adds the token to requests for the API host only: never to another host, not
// even one a redirect leads to.
type authTransport struct {
	base  http.RoundTripper
	token string
	host  string
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.token != "" && strings.EqualFold(req.URL.Host, t.host) {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	resp, err := t.base.RoundTrip(req)
	if resp != nil && resp.Body != nil {
		resp.Body = &cappedBody{r: io.LimitReader(resp.Body, maxResponseBytes), c: resp.Body}
	}
	return resp, err
}

// sameHostRedirects refuses a redirect to another host: the client follows none that could
// carry the pull request's data elsewhere.
func sameHostRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("stopped after 5 redirects")
	}
	if !strings.EqualFold(req.URL.Host, via[0].URL.Host) {
		return fmt.Errorf("refused a redirect from %s to another host (%s)", via[0].URL.Host, req.URL.Host)
	}
	return nil
}

type cappedBody struct {
	r io.Reader
	c io.Closer
}

func (b *cappedBody) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *cappedBody) Close() error               { return b.c.Close() }

// retryTransport retries GitHub API calls that fail for reasons that pass: 5xx answers,
// network errors, and secondary rate limits (403 or 429 with Retry-After, or a body that says
// so). Other answers, a plain 403 included, are returned at once. Only requests that can be
// repeated safely are retried (GET, HEAD, PUT, PATCH, DELETE): a POST that failed may have
// succeeded, and the caller decides (the sticky comment looks for its marker first). Waits are
// capped one by one and in total, and end with the request's context.
type retryTransport struct {
	base     http.RoundTripper
	sleep    func(context.Context, time.Duration) error
	attempts int
}

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(io.LimitReader(req.Body, maxResponseBytes))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	backoff := time.Second
	var waited time.Duration
	for attempt := 1; ; attempt++ {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		resp, err := t.base.RoundTrip(r)
		wait, retry := t.shouldRetry(resp, err, backoff)
		if wait > maxRetryWait {
			wait = maxRetryWait
		}
		if !retry || !idempotent(req.Method) || attempt >= t.attempts || waited+wait > maxRetryTotal {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		waited += wait
		backoff *= 2
	}
}

// sleepContext waits d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (t *retryTransport) shouldRetry(resp *http.Response, err error, backoff time.Duration) (time.Duration, bool) {
	if err != nil {
		return backoff, true
	}
	if resp.StatusCode >= 500 {
		return backoff, true
	}
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return time.Duration(min(n, int(maxRetryWait/time.Second))) * time.Second, true
		}
	}
	// Read the body to tell a secondary rate limit from a plain permission error, then put it
	// back for the caller.
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if strings.Contains(strings.ToLower(string(b)), "secondary rate limit") {
		return backoff * 30, true // GitHub asks for at least a minute between retries
	}
	return 0, false
}
