package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

const token = "ghs_s3cr3tT0kenValue"

// fakeGitHub serves the REST endpoints eni-lint uses and records every request.
type fakeGitHub struct {
	mu       sync.Mutex
	requests []string // "METHOD /path"
	auth     []string
	comments map[int64]string
	nextID   int64
	fail     map[string][]int // "METHOD /path" -> statuses to answer first
	// failAfter: statuses to answer after doing what was asked (a 502 from a proxy after
	// the comment was created)
	failAfter map[string][]int
	files     []map[string]any
	reviews   []map[string]any
	forbid    bool
	// authors of the comments; new ones are the token's: user, or the Actions bot when user
	// is "" (GET /user answers 403, as it does for a workflow's GITHUB_TOKEN).
	authors map[int64]string
	user    string
}

func newFake() *fakeGitHub {
	return &fakeGitHub{comments: map[int64]string{}, authors: map[int64]string{}, nextID: 100, fail: map[string][]int{}, failAfter: map[string][]int{}}
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := r.Method + " " + r.URL.Path
	f.requests = append(f.requests, key)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	if codes := f.fail[key]; len(codes) > 0 {
		f.fail[key] = codes[1:]
		w.WriteHeader(codes[0])
		fmt.Fprint(w, `{"message": "Server Error"}`)
		return
	}
	if f.forbid && r.Method != http.MethodGet {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message": "Resource not accessible by integration"}`)
		return
	}
	var body map[string]any
	if r.Body != nil {
		json.NewDecoder(r.Body).Decode(&body)
	}
	self := f.user
	if self == "" {
		self = "github-actions[bot]"
	}
	switch {
	case key == "GET /user":
		if f.user == "" {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message": "Resource not accessible by integration"}`)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"login": f.user, "type": "User"})
	case key == "GET /repos/org/repo/issues/7/comments":
		var out []map[string]any
		for id, b := range f.comments {
			out = append(out, map[string]any{"id": id, "body": b, "user": map[string]any{"login": f.authors[id]}})
		}
		json.NewEncoder(w).Encode(out)
	case key == "POST /repos/org/repo/issues/7/comments":
		f.nextID++
		f.comments[f.nextID] = body["body"].(string)
		f.authors[f.nextID] = self
		if codes := f.failAfter[key]; len(codes) > 0 {
			f.failAfter[key] = codes[1:]
			w.WriteHeader(codes[0])
			return
		}
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": f.nextID, "body": body["body"]})
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/org/repo/issues/comments/"):
		var id int64
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/repos/org/repo/issues/comments/"), &id)
		f.comments[id] = body["body"].(string)
		json.NewEncoder(w).Encode(map[string]any{"id": id, "body": body["body"]})
	case key == "GET /repos/org/repo/pulls/7/files":
		json.NewEncoder(w).Encode(f.files)
	case key == "GET /repos/org/repo/pulls/7/comments":
		var out []map[string]any
		for _, rv := range f.reviews {
			for _, c := range rv["comments"].([]any) {
				c := c.(map[string]any)
				if c["user"] == nil {
					c["user"] = map[string]any{"login": self}
				}
				out = append(out, c)
			}
		}
		json.NewEncoder(w).Encode(out)
	case key == "POST /repos/org/repo/pulls/7/reviews":
		f.reviews = append(f.reviews, body)
		json.NewEncoder(w).Encode(map[string]any{"id": 1})
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "Not Found"}`)
	}
}

func (f *fakeGitHub) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if r == key {
			n++
		}
	}
	return n
}

func eventFile(t *testing.T, headRepo string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.json")
	ev := fmt.Sprintf(`{"pull_request": {"number": 7, "head": {"sha": "headsha123456", "repo": {"full_name": %q}}, "base": {"repo": {"full_name": "org/repo"}}}}`, headRepo)
	if err := os.WriteFile(p, []byte(ev), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func reportWith(fs ...findings.Finding) *findings.Report {
	r := &findings.Report{
		Version: "test", FailOn: findings.Error,
		Model:         findings.Model{ENIRelease: "onDelete", Description: "onDelete: held until deleted"},
		CapacityKnown: true,
		Findings:      fs,
		InstanceTypes: []findings.InstanceTypeRow{{NodeGroup: "g", InstanceType: "m5.large", Known: true, Trunking: true, BranchInterfaces: 9, Hidden: 34, Active: 1, Demand: 35, Verdict: "exceeds"}},
	}
	r.Count()
	return r
}

var eni001 = findings.Finding{Rule: "ENI001", Severity: findings.Error, Message: "35 branch ENIs where 9 exist", Location: inventory.Position{File: "k8s/cron.yaml", Line: 10, Column: 5}}

type run struct {
	out, log bytes.Buffer
	summary  string
}

func publish(t *testing.T, srv *httptest.Server, env Env, opts Options, rep *findings.Report) *run {
	t.Helper()
	r := &run{summary: filepath.Join(t.TempDir(), "summary.md")}
	env.APIURL, env.Token, env.Repository, env.StepSummary, env.ServerURL = srv.URL, token, "org/repo", r.summary, "https://github.com"
	if env.EventName == "" {
		env.EventName = "pull_request"
	}
	opts.Out, opts.Log, opts.Sleep = &r.out, &r.log, func(time.Duration) {}
	opts.Transport = srv.Client().Transport
	if err := Publish(context.Background(), env, opts, rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{r.out.String(), r.log.String(), readFile(t, r.summary)} {
		if strings.Contains(s, token) {
			t.Fatalf("the token appears in the output:\n%s", s)
		}
	}
	return r
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func TestStickyCommentCreatedUpdatedResolved(t *testing.T) {
	fake := newFake()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	env := Env{EventPath: eventFile(t, "org/repo"), SHA: "mergesha"}

	first := publish(t, srv, env, Options{Comment: true}, reportWith(eni001))
	if fake.count("POST /repos/org/repo/issues/7/comments") != 1 || len(fake.comments) != 1 {
		t.Fatalf("first run: requests %v", fake.requests)
	}
	if !strings.Contains(first.out.String(), "::error file=k8s/cron.yaml,line=10,col=5,title=ENI001::") {
		t.Errorf("annotations: %s", first.out.String())
	}
	summary := readFile(t, first.summary)
	if !strings.Contains(summary, "https://github.com/org/repo/blob/headsha123456/k8s/cron.yaml#L10") || !strings.Contains(summary, "xychart-beta") {
		t.Errorf("summary:\n%s", summary)
	}
	for _, a := range fake.auth {
		if a != "Bearer "+token {
			t.Errorf("authorization header %q", a)
		}
	}

	// A rerun with a different result updates the same comment.
	changed := eni001
	changed.Message = "36 branch ENIs where 9 exist"
	publish(t, srv, env, Options{Comment: true}, reportWith(changed))
	if fake.count("POST /repos/org/repo/issues/7/comments") != 1 || fake.count("PATCH /repos/org/repo/issues/comments/101") != 1 {
		t.Fatalf("second run: requests %v", fake.requests)
	}
	if body := fake.comments[101]; !strings.HasPrefix(body, Marker) || !strings.Contains(body, "36 branch ENIs") {
		t.Errorf("updated body:\n%s", body)
	}

	// The same result again changes nothing.
	publish(t, srv, env, Options{Comment: true}, reportWith(changed))
	if fake.count("PATCH /repos/org/repo/issues/comments/101") != 1 {
		t.Errorf("an identical rerun edited the comment")
	}

	// Findings gone: the comment says so.
	publish(t, srv, env, Options{Comment: true}, reportWith())
	if body := fake.comments[101]; !strings.Contains(body, "## eni-lint: resolved") || len(fake.comments) != 1 {
		t.Errorf("resolved body:\n%s", body)
	}
}

func TestNoCommentWhenCleanFromTheStart(t *testing.T) {
	fake := newFake()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Comment: true}, reportWith())
	if len(fake.comments) != 0 || fake.count("POST /repos/org/repo/issues/7/comments") != 0 {
		t.Errorf("requests %v", fake.requests)
	}
}

func TestForbiddenFallsBackOnce(t *testing.T) {
	fake := newFake()
	fake.forbid = true
	srv := httptest.NewServer(fake)
	defer srv.Close()
	r := publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Comment: true}, reportWith(eni001))
	if strings.Count(r.log.String(), "may not write") != 1 {
		t.Errorf("log:\n%s", r.log.String())
	}
	if !strings.Contains(r.out.String(), "::error") || !strings.Contains(readFile(t, r.summary), "ENI001") {
		t.Error("annotations and summary must still be written")
	}
	if fake.count("POST /repos/org/repo/issues/7/comments") != 1 {
		t.Errorf("a plain 403 must not be retried: %v", fake.requests)
	}
}

func TestServerErrorsAreRetried(t *testing.T) {
	fake := newFake()
	fake.fail["GET /repos/org/repo/issues/7/comments"] = []int{502}
	fake.fail["POST /repos/org/repo/issues/7/comments"] = []int{503, 500}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var slept []time.Duration
	r := &run{summary: filepath.Join(t.TempDir(), "s.md")}
	env := Env{EventName: "pull_request", EventPath: eventFile(t, "org/repo"), APIURL: srv.URL, Token: token, Repository: "org/repo", StepSummary: r.summary}
	err := Publish(context.Background(), env, Options{Comment: true, Out: &r.out, Log: &r.log, Transport: srv.Client().Transport,
		Sleep: func(d time.Duration) { slept = append(slept, d) }}, reportWith(eni001))
	if err != nil {
		t.Fatal(err)
	}
	// The GET is retried by the transport; the POST is not (it is not idempotent): the
	// publisher looks for its marker after each failed create, then creates again.
	if len(fake.comments) != 1 || fake.count("GET /repos/org/repo/issues/7/comments") != 4 || fake.count("POST /repos/org/repo/issues/7/comments") != 3 {
		t.Errorf("requests %v", fake.requests)
	}
	if len(slept) != 3 || slept[0] != time.Second || slept[1] != time.Second || slept[2] != 2*time.Second {
		t.Errorf("backoff %v", slept)
	}
}

// A create that succeeded behind a 502 is found by its marker, not made twice.
func TestCreateThatSucceededBehindA502IsNotRepeated(t *testing.T) {
	fake := newFake()
	fake.failAfter["POST /repos/org/repo/issues/7/comments"] = []int{502}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Comment: true}, reportWith(eni001))
	if len(fake.comments) != 1 || fake.count("POST /repos/org/repo/issues/7/comments") != 1 {
		t.Errorf("comments %d, requests %v", len(fake.comments), fake.requests)
	}
}

// Retry-After is capped, the waits end with the context, and the token goes to the API host
// only, never where a redirect points.
func TestRetryWaitsAreBoundedAndTheTokenStaysHome(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	var slept []time.Duration
	tr := &retryTransport{base: srv.Client().Transport, sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }, attempts: 4}
	resp, err := (&http.Client{Transport: tr}).Get(srv.URL)
	if err != nil || resp.StatusCode != 429 || len(slept) != 1 || slept[0] != maxRetryWait {
		t.Errorf("err %v slept %v (want one wait of %v, then the total budget stops it)", err, slept, maxRetryWait)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepContext(ctx, time.Hour); err == nil {
		t.Error("sleepContext ignored a cancelled context")
	}

	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = append(leaked, r.Header.Get("Authorization"))
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/x", http.StatusFound)
	}))
	defer api.Close()
	u, _ := url.Parse(api.URL)
	client := &http.Client{Transport: &authTransport{base: api.Client().Transport, token: token, host: u.Host}, CheckRedirect: sameHostRedirects}
	if _, err := client.Get(api.URL + "/repos"); err == nil || len(leaked) != 0 {
		t.Errorf("redirect to another host followed: err %v, requests there %v", err, leaked)
	}
	// A response larger than the cap is cut.
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, maxResponseBytes+1000))
	}))
	defer big.Close()
	bu, _ := url.Parse(big.URL)
	resp, err = (&http.Client{Transport: &authTransport{base: big.Client().Transport, host: bu.Host}}).Get(big.URL)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	if n != maxResponseBytes {
		t.Errorf("read %d bytes, want the cap %d", n, maxResponseBytes)
	}
}

// A comment longer than GitHub accepts is cut, and says what it left out.
func TestLongCommentIsTruncated(t *testing.T) {
	fake := newFake()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var many []findings.Finding
	for i := 0; i < 2000; i++ {
		f := eni001
		f.Message = fmt.Sprintf("%d %s", i, strings.Repeat("x", 100))
		f.Location.Line = i + 1
		many = append(many, f)
	}
	publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Comment: true}, reportWith(many...))
	if len(fake.comments) != 1 {
		t.Fatalf("%d comments", len(fake.comments))
	}
	for _, body := range fake.comments {
		if len(body) > 65536 || !strings.Contains(body, "findings are not shown here") {
			t.Errorf("comment of %d characters", len(body))
		}
	}
}

func TestSecondaryRateLimitIsRetried(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message": "You have exceeded a secondary rate limit"}`)
			return
		}
		io.WriteString(w, "[]")
	}))
	defer srv.Close()
	var slept []time.Duration
	tr := &retryTransport{base: srv.Client().Transport, sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }, attempts: 4}
	resp, err := (&http.Client{Transport: tr}).Get(srv.URL)
	if err != nil || resp.StatusCode != 200 || calls != 2 || len(slept) != 1 || slept[0] != 7*time.Second {
		t.Errorf("status %v err %v calls %d slept %v", resp.StatusCode, err, calls, slept)
	}
}

func TestForkAndMissingTokenMakeNoCalls(t *testing.T) {
	fake := newFake()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	r := publish(t, srv, Env{EventPath: eventFile(t, "someone/fork")}, Options{Comment: true}, reportWith(eni001))
	if len(fake.requests) != 0 || !strings.Contains(r.log.String(), "fork") {
		t.Errorf("fork: requests %v log %s", fake.requests, r.log.String())
	}
	// pull_request_target runs with the base repository's token.
	publish(t, srv, Env{EventName: "pull_request_target", EventPath: eventFile(t, "someone/fork")}, Options{Comment: true}, reportWith(eni001))
	if len(fake.comments) != 1 {
		t.Errorf("pull_request_target: requests %v", fake.requests)
	}
	var out, log bytes.Buffer
	err := Publish(context.Background(), Env{EventPath: eventFile(t, "org/repo"), Repository: "org/repo"}, Options{Comment: true, Out: &out, Log: &log}, reportWith(eni001))
	if err != nil || !strings.Contains(log.String(), "GITHUB_TOKEN is not set") || !strings.Contains(out.String(), "::error") {
		t.Errorf("no token: %v %s", err, log.String())
	}
	r = publish(t, srv, Env{EventName: "push"}, Options{Comment: true}, reportWith(eni001))
	if !strings.Contains(r.log.String(), "not a pull request") {
		t.Errorf("push: %s", r.log.String())
	}
}

func TestReviewCommentsOnChangedLinesOnce(t *testing.T) {
	fake := newFake()
	fake.files = []map[string]any{{"filename": "k8s/cron.yaml", "patch": "@@ -8,3 +8,4 @@ spec:\n   a: 1\n-  b: 2\n+  b: 3\n+  c: 4\n   d: 5"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	outside := eni001
	outside.Location.Line = 40
	env := Env{EventPath: eventFile(t, "org/repo")}
	publish(t, srv, env, Options{Review: true}, reportWith(eni001, outside))
	if len(fake.reviews) != 1 {
		t.Fatalf("reviews %v", fake.reviews)
	}
	comments := fake.reviews[0]["comments"].([]any)
	if len(comments) != 1 || comments[0].(map[string]any)["line"].(float64) != 10 || fake.reviews[0]["commit_id"] != "headsha123456" {
		t.Errorf("review %v", fake.reviews[0])
	}
	publish(t, srv, env, Options{Review: true}, reportWith(eni001, outside))
	if len(fake.reviews) != 1 {
		t.Errorf("a rerun posted the same review comment again")
	}
}

func TestChangedLines(t *testing.T) {
	got := changedLines("@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -10 +11,2 @@\n-x\n+y\n+z\n\\ No newline at end of file")
	want := []int{1, 2, 3, 11, 12}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for _, n := range want {
		if !got[n] {
			t.Errorf("line %d missing from %v", n, got)
		}
	}
}

func TestParseEvent(t *testing.T) {
	tests := []struct {
		name, event, data string
		number            int
		sha               string
		fork              bool
	}{
		{"same repository", "pull_request", `{"pull_request":{"number":7,"head":{"sha":"abc","repo":{"full_name":"o/r"}},"base":{"repo":{"full_name":"o/r"}}}}`, 7, "abc", false},
		{"a fork", "pull_request", `{"pull_request":{"number":7,"head":{"sha":"abc","repo":{"full_name":"x/r"}},"base":{"repo":{"full_name":"o/r"}}}}`, 7, "abc", true},
		{"pull_request_target may write", "pull_request_target", `{"pull_request":{"number":7,"head":{"repo":{"full_name":"x/r"}},"base":{"repo":{"full_name":"o/r"}}}}`, 7, "", false},
		{"a push", "push", `{"ref":"refs/heads/main"}`, 0, "", false},
		{"a number that is no pull request", "pull_request", `{"pull_request":{"number":-3}}`, 0, "", false},
		{"not JSON", "pull_request", `{"pull_request":`, 0, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, sha, fork := parseEvent([]byte(tc.data), tc.event)
			if n != tc.number || sha != tc.sha || fork != tc.fork {
				t.Errorf("got %d %q %v, want %d %q %v", n, sha, fork, tc.number, tc.sha, tc.fork)
			}
		})
	}
}

func FuzzParseEvent(f *testing.F) {
	f.Add([]byte(`{"pull_request":{"number":7,"title":"::error::x","head":{"sha":"abc","repo":{"full_name":"x/r"}},"base":{"repo":{"full_name":"o/r"}}}}`), "pull_request")
	f.Add([]byte(`{"pull_request":null}`), "pull_request_target")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		n, sha, fork := parseEvent(data, name)
		if n < 0 || (n == 0 && (sha != "" || fork)) {
			t.Fatalf("number %d, head %q, fork %v", n, sha, fork)
		}
	})
}

// A fixable finding on a changed line gets its fix as a suggestion: the comment covers the
// lines the fix replaces, and the suggestion holds exactly their new text.
func TestReviewSuggestsTheFix(t *testing.T) {
	fake := newFake()
	fake.files = []map[string]any{{"filename": "k8s/cron.yaml", "patch": "@@ -8,3 +8,4 @@ spec:\n   a: 1\n-  b: 2\n+  b: 3\n+  c: 4\n   d: 5"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	fixable := eni001
	fixable.Edits = []findings.Edit{{File: "k8s/cron.yaml", StartLine: 9, EndLine: 10, Original: "  b: 3\r\n  c: 4\r\n", Text: "  b: 3\r\n  backoffLimit: 2\r\n  c: 4\r\n", Change: "lower backoffLimit"}}
	offDiff := findings.Finding{Rule: "ENI002", Severity: findings.Warning, Message: "no TTL", Location: inventory.Position{File: "k8s/cron.yaml", Line: 10, Column: 5}}
	offDiff.Location.Line = 10
	offDiff.Edits = []findings.Edit{{File: "k8s/cron.yaml", StartLine: 30, EndLine: 30, Text: "x\n"}}
	publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Review: true}, reportWith(fixable, offDiff))
	if len(fake.reviews) != 1 {
		t.Fatalf("reviews %v", fake.reviews)
	}
	comments := fake.reviews[0]["comments"].([]any)
	if len(comments) != 2 {
		t.Fatalf("comments %v", comments)
	}
	var withSuggestion, plain map[string]any
	for _, c := range comments {
		c := c.(map[string]any)
		if strings.Contains(c["body"].(string), "```suggestion") {
			withSuggestion = c
		} else {
			plain = c
		}
	}
	if withSuggestion == nil || plain == nil {
		t.Fatalf("want one comment with a suggestion and one without: %v", comments)
	}
	if !strings.Contains(withSuggestion["body"].(string), "```suggestion\n  b: 3\n  backoffLimit: 2\n  c: 4\n```") ||
		withSuggestion["start_line"].(float64) != 9 || withSuggestion["line"].(float64) != 10 || withSuggestion["start_side"] != "RIGHT" {
		t.Errorf("suggestion comment %v", withSuggestion)
	}
	// An edit on lines the pull request does not show stays a plain comment on the finding.
	if plain["line"].(float64) != 10 || plain["start_line"] != nil {
		t.Errorf("plain comment %v", plain)
	}
}

func TestSuggestionFence(t *testing.T) {
	if got := suggestion("a: ```x```\n"); got != "````suggestion\na: ```x```\n````" {
		t.Errorf("suggestion = %q", got)
	}
}

// A comment that starts with the sticky marker but was written by someone else (a pull
// request's author can) is not eni-lint's: it is left alone and eni-lint makes its own. With
// a personal token, the token's user is eni-lint's identity.
func TestStickyCommentOnlyFromTheTokensIdentity(t *testing.T) {
	fake := newFake()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	fake.comments[1] = Marker + "\nall clear, merge away"
	fake.authors[1] = "mallory"
	env := Env{EventPath: eventFile(t, "org/repo"), SHA: "mergesha"}
	r := publish(t, srv, env, Options{Comment: true}, reportWith(eni001))
	if fake.comments[1] != Marker+"\nall clear, merge away" || fake.count("POST /repos/org/repo/issues/7/comments") != 1 {
		t.Errorf("comments %v, requests %v", fake.comments, fake.requests)
	}
	if !strings.Contains(r.log.String(), "a comment by mallory carries eni-lint's marker") || strings.Contains(r.log.String(), "token may not") {
		t.Errorf("log:\n%s", r.log.String())
	}
	// A second run edits its own comment, not mallory's.
	publish(t, srv, env, Options{Comment: true}, reportWith())
	if fake.count("POST /repos/org/repo/issues/7/comments") != 1 || !strings.Contains(fake.comments[fake.nextID], "resolved") {
		t.Errorf("second run: comments %v", fake.comments)
	}

	pat := newFake()
	pat.user = "ci-user"
	srv2 := httptest.NewServer(pat)
	defer srv2.Close()
	pat.comments[1] = Marker + "\nold report"
	pat.authors[1] = "ci-user"
	publish(t, srv2, env, Options{Comment: true}, reportWith(eni001))
	if pat.count("POST /repos/org/repo/issues/7/comments") != 0 || !strings.Contains(pat.comments[1], "ENI001") {
		t.Errorf("personal token: comments %v requests %v", pat.comments, pat.requests)
	}
}

// A review comment is cut under GitHub's limit (one of 70,000 characters made the whole
// review fail).
func TestReviewCommentsAreCutToTheLimit(t *testing.T) {
	fake := newFake()
	fake.files = []map[string]any{{"filename": "k8s/cron.yaml", "patch": "@@ -8,3 +8,4 @@ spec:\n   a: 1\n-  b: 2\n+  b: 3\n+  c: 4\n   d: 5"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	long := eni001
	long.Message = "CronJob billing/" + strings.Repeat("n", 70000) + " holds 35 branch ENIs"
	publish(t, srv, Env{EventPath: eventFile(t, "org/repo")}, Options{Review: true}, reportWith(long))
	if len(fake.reviews) != 1 {
		t.Fatalf("reviews %v", fake.reviews)
	}
	body := fake.reviews[0]["comments"].([]any)[0].(map[string]any)["body"].(string)
	if len(body) > 65536 || !strings.Contains(body, "cut to GitHub's comment limit") || !strings.Contains(body, "<!-- eni-lint:") {
		t.Errorf("a body of %d characters:\n%.300s", len(body), body)
	}
}
