package github

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryTransport retries GitHub API calls that fail for reasons that pass: 5xx answers,
// network errors, and secondary rate limits (403 or 429 with Retry-After, or a body that says
// so). Other answers, a plain 403 included, are returned at once.
type retryTransport struct {
	base     http.RoundTripper
	sleep    func(time.Duration)
	attempts int
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	backoff := time.Second
	for attempt := 1; ; attempt++ {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		resp, err := t.base.RoundTrip(r)
		wait, retry := t.shouldRetry(resp, err, backoff)
		if !retry || attempt >= t.attempts {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
		t.sleep(wait)
		backoff *= 2
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
			return time.Duration(n) * time.Second, true
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
