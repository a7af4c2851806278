// Package github publishes a report where a pull request is reviewed: workflow-command
// annotations on the exact lines, the Markdown report in the job summary, one sticky pull
// request comment (found again by a hidden marker, updated on reruns, marked resolved when the
// findings are gone), and optionally review comments on changed lines.
//
// Nothing here changes the exit code: a failing API only produces a message, once, and the
// annotations and the job summary still carry the report. The token never appears in output.
package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/report"
)

// Marker identifies eni-lint's sticky comment among a pull request's comments.
const Marker = "<!-- eni-lint:sticky-comment -->"

// Env is what a GitHub Actions runner tells a step.
type Env struct {
	EventName   string // GITHUB_EVENT_NAME
	EventPath   string // GITHUB_EVENT_PATH
	Repository  string // GITHUB_REPOSITORY, owner/name
	SHA         string // GITHUB_SHA
	Token       string // GITHUB_TOKEN
	StepSummary string // GITHUB_STEP_SUMMARY
	APIURL      string // GITHUB_API_URL
	ServerURL   string // GITHUB_SERVER_URL
}

// EnvFrom reads the runner's variables.
func EnvFrom(getenv func(string) string) Env {
	return Env{
		EventName: getenv("GITHUB_EVENT_NAME"), EventPath: getenv("GITHUB_EVENT_PATH"),
		Repository: getenv("GITHUB_REPOSITORY"), SHA: getenv("GITHUB_SHA"),
		Token: getenv("GITHUB_TOKEN"), StepSummary: getenv("GITHUB_STEP_SUMMARY"),
		APIURL: getenv("GITHUB_API_URL"), ServerURL: getenv("GITHUB_SERVER_URL"),
	}
}

// Options choose what to publish.
type Options struct {
	// Comment keeps one sticky comment on the pull request up to date.
	Comment bool
	// Review adds review comments on changed lines that have findings.
	Review bool
	// Out receives the annotations (workflow commands go to standard output).
	Out io.Writer
	// Log receives messages about publishing (standard error).
	Log io.Writer
	// Root is the working folder from the repository root (report.FromRoot): annotations,
	// links and review comments name files as the repository does.
	Root string
	// Transport and Sleep are replaced in tests.
	Transport http.RoundTripper
	Sleep     func(time.Duration)
}

// event is the part of the webhook payload eni-lint reads.
type event struct {
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA  string `json:"sha"`
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
}

type publisher struct {
	env     Env
	headSHA string // the pull request's head commit: where review comments and links point
	opts    Options
	client  *gh.Client
	owner   string
	repo    string
	said    map[string]bool
	// self is the login the token acts as (identity), looked up once: only its comments are
	// eni-lint's, whatever marker another author writes.
	self      string
	selfKnown bool
}

// actionsBot is the author of comments made with the GITHUB_TOKEN of a workflow run: an
// installation token of the GitHub Actions app, which may not read GET /user.
const actionsBot = "github-actions[bot]"

// identity is the login eni-lint's comments are written as: the user a personal or OAuth
// token belongs to (GET /user), or the Actions bot for an app installation token, which GET
// /user refuses (401 or 403).
func (p *publisher) identity(ctx context.Context) string {
	if p.selfKnown {
		return p.self
	}
	p.selfKnown = true
	p.self = actionsBot
	user, _, err := p.client.Users.Get(ctx, "")
	if err == nil && user.GetLogin() != "" {
		p.self = user.GetLogin()
		if user.GetType() == "Bot" && !strings.HasSuffix(p.self, "[bot]") {
			p.self += "[bot]"
		}
	}
	return p.self
}

// ours reports whether a comment is eni-lint's: it carries the marker and was written by the
// identity the token acts as. A comment that starts with the marker but is someone else's (a
// pull request's author can write one) is left alone.
func (p *publisher) ours(ctx context.Context, c *gh.IssueComment) bool {
	if !strings.HasPrefix(c.GetBody(), Marker) {
		return false
	}
	if author := c.GetUser().GetLogin(); author != p.identity(ctx) {
		p.say("impostor", "a comment by %s carries eni-lint's marker; it is not eni-lint's and is left alone", author)
		return false
	}
	return true
}

// say writes a message once, with the token removed should it ever appear.
func (p *publisher) say(key, format string, args ...any) {
	if p.said[key] {
		return
	}
	p.said[key] = true
	msg := fmt.Sprintf(format, args...)
	if p.env.Token != "" {
		msg = strings.ReplaceAll(msg, p.env.Token, "***")
	}
	fmt.Fprintf(p.opts.Log, "eni-lint: %s\n", msg)
}

// Publish writes annotations and the job summary, then the pull request comment and review
// when asked for and possible. It returns an error only when it cannot write annotations or
// the summary file.
func Publish(ctx context.Context, env Env, opts Options, rep *findings.Report) error {
	if opts.Log == nil {
		opts.Log = io.Discard
	}

	p := &publisher{env: env, opts: opts, said: map[string]bool{}}
	if err := (report.GitHub{Root: opts.Root}).Write(opts.Out, rep); err != nil {
		return err
	}
	pr, fork := p.pullRequest()
	if p.headSHA != "" {
		// On pull_request events GITHUB_SHA is a merge commit that disappears; link the head.
		env.SHA = p.headSHA
		p.env.SHA = p.headSHA
	}
	md := report.Markdown{LinkBase: linkBase(env), Chart: true, Root: opts.Root}
	if env.StepSummary != "" {
		err := confine.Write(env.StepSummary, confine.WriteOptions{Append: true}, func(w io.Writer) error { return md.Write(w, rep) })
		if err != nil {
			return fmt.Errorf("job summary: %w", err)
		}
	}
	if !opts.Comment && !opts.Review {
		return nil
	}
	switch {
	case pr == 0:
		p.say("no-pr", "not a pull request event (%s): no pull request comment", orNone(env.EventName))
		return nil
	case env.Token == "":
		p.say("no-token", "GITHUB_TOKEN is not set: no pull request comment; the annotations and the job summary carry the report")
		return nil
	case fork:
		p.say("fork", "pull request from a fork: its token cannot comment; the annotations and the job summary carry the report")
		return nil
	}
	if err := p.connect(); err != nil {
		p.say("connect", "cannot use the GitHub API: %v", err)
		return nil
	}
	if opts.Comment {
		p.stickyComment(ctx, pr, rep, md)
	}
	if opts.Review {
		p.review(ctx, pr, rep)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func linkBase(env Env) string {
	if env.ServerURL == "" || env.Repository == "" || env.SHA == "" {
		return ""
	}
	return strings.TrimSuffix(env.ServerURL, "/") + "/" + env.Repository + "/blob/" + env.SHA + "/"
}

// pullRequest reads the pull request number from the event, and whether it comes from a fork.
func (p *publisher) pullRequest() (number int, fork bool) {
	if p.env.EventPath == "" {
		return 0, false
	}
	b, err := os.ReadFile(p.env.EventPath)
	if err != nil {
		p.say("event", "cannot read GITHUB_EVENT_PATH: %v", err)
		return 0, false
	}
	number, p.headSHA, fork = parseEvent(b, p.env.EventName)
	return number, fork
}

// parseEvent reads the pull request of a workflow event: its number (0 when the event has
// none), head commit, and whether it comes from a fork. The event holds text the pull
// request's author wrote (title, body, branch names); only these fields are used.
func parseEvent(data []byte, eventName string) (number int, headSHA string, fork bool) {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil || ev.PullRequest == nil || ev.PullRequest.Number < 1 {
		return 0, "", false
	}
	head, base := ev.PullRequest.Head.Repo.FullName, ev.PullRequest.Base.Repo.FullName
	// pull_request_target runs with the base repository's token, which may write.
	fork = head != "" && base != "" && head != base && eventName != "pull_request_target"
	return ev.PullRequest.Number, ev.PullRequest.Head.SHA, fork
}

func (p *publisher) connect() error {
	owner, repo, ok := strings.Cut(p.env.Repository, "/")
	if !ok || owner == "" || repo == "" {
		return fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name", p.env.Repository)
	}
	p.owner, p.repo = owner, repo
	base := p.opts.Transport
	if base == nil {
		base = apiTransport()
	}
	sleep := sleepContext
	if p.opts.Sleep != nil {
		fake := p.opts.Sleep
		sleep = func(ctx context.Context, d time.Duration) error { fake(d); return ctx.Err() }
	}
	apiURL := "https://api.github.com/"
	if p.env.APIURL != "" {
		apiURL = strings.TrimSuffix(p.env.APIURL, "/") + "/"
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("GITHUB_API_URL %q is not a URL", p.env.APIURL)
	}
	auth := &authTransport{base: base, token: p.env.Token, host: u.Host}
	httpClient := &http.Client{Transport: &retryTransport{base: auth, sleep: sleep, attempts: 4}, Timeout: 30 * time.Second, CheckRedirect: sameHostRedirects}
	p.client = gh.NewClient(httpClient)
	p.client.BaseURL = u
	return nil
}

// apiFailed reports an API error once; a 403 means the token may not write here.
func (p *publisher) apiFailed(what string, err error) {
	var ge *gh.ErrorResponse
	if errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusForbidden {
		p.say("forbidden", "the token may not write to this pull request (403 on %s): the annotations and the job summary carry the report; grant pull-requests: write to comment", what)
		return
	}
	p.say("api-"+what, "GitHub API error on %s: %v", what, err)
}

func (p *publisher) stickyComment(ctx context.Context, pr int, rep *findings.Report, md report.Markdown) {
	existing, err := p.findComment(ctx, pr)
	if err != nil {
		p.apiFailed("listing comments", err)
		return
	}
	clean := len(rep.Errors) == 0
	for _, f := range rep.Findings {
		if f.Suppressed == nil {
			clean = false
		}
	}
	var body strings.Builder
	body.WriteString(Marker + "\n")
	if clean {
		if existing == nil {
			return // nothing to say, and nothing said before
		}
		fmt.Fprintf(&body, "## eni-lint: resolved\n\nThe findings reported here earlier are gone as of %s. %s\n", shortSHA(p.env.SHA), rep.Model.Description)
	} else if err := md.Write(&body, rep); err != nil {
		p.say("render", "cannot render the comment: %v", err)
		return
	}
	text := body.String()
	if len(text) > MaxCommentLength {
		text = p.shortComment(rep, md)
	}
	if existing == nil {
		if existing = p.createComment(ctx, pr, text); existing == nil {
			return
		}
	}
	if existing.GetBody() == text {
		return
	}
	if _, _, err := p.client.Issues.EditComment(ctx, p.owner, p.repo, existing.GetID(), &gh.IssueComment{Body: &text}); err != nil {
		p.apiFailed("updating the comment", err)
		return
	}
	p.say("updated", "updated the pull request comment")
}

// createComment creates the sticky comment, and says so. A create is not repeated blindly:
// one that failed with a 5xx or a broken connection may have been made, so the marker is
// looked for again before the next try; a comment found so is returned, to be edited if it
// differs. nil when it is made or cannot be (said).
func (p *publisher) createComment(ctx context.Context, pr int, text string) *gh.IssueComment {
	backoff := time.Second
	for attempt := 1; ; attempt++ {
		_, _, err := p.client.Issues.CreateComment(ctx, p.owner, p.repo, pr, &gh.IssueComment{Body: &text})
		if err == nil {
			p.say("created", "created the pull request comment")
			return nil
		}
		if attempt >= 3 || !transient(err) || ctx.Err() != nil {
			p.apiFailed("creating the comment", err)
			return nil
		}
		if p.opts.Sleep != nil {
			p.opts.Sleep(backoff)
		} else if sleepContext(ctx, backoff) != nil {
			p.apiFailed("creating the comment", ctx.Err())
			return nil
		}
		backoff *= 2
		found, ferr := p.findComment(ctx, pr)
		if ferr != nil {
			p.apiFailed("listing comments", ferr)
			return nil
		}
		if found != nil {
			return found
		}
	}
}

// MaxCommentLength is GitHub's limit on a comment body (65,536 characters), with room for
// the line that says what was left out.
const MaxCommentLength = 65000

// transient reports whether an API error may pass: a 5xx answer or no answer at all.
func transient(err error) bool {
	var ge *gh.ErrorResponse
	if errors.As(err, &ge) && ge.Response != nil {
		return ge.Response.StatusCode >= 500
	}
	return true
}

// shortComment renders the comment with as many findings as fit under GitHub's limit, and a
// line that says how many were left out and where they all are.
func (p *publisher) shortComment(rep *findings.Report, md report.Markdown) string {
	render := func(n int) string {
		cut := *rep
		cut.Findings = rep.Findings[:n]
		var b strings.Builder
		b.WriteString(Marker + "\n")
		md.Write(&b, &cut)
		fmt.Fprintf(&b, "\n**%d of %d findings are not shown here** (GitHub's 65,536-character limit on a comment): the job summary, the annotations and the SARIF report have them all.\n", len(rep.Findings)-n, len(rep.Findings))
		return b.String()
	}
	lo, hi := 0, len(rep.Findings)
	for lo < hi { // the most findings that fit
		mid := (lo + hi + 1) / 2
		if len(render(mid)) <= MaxCommentLength {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	text := render(lo)
	if len(text) > MaxCommentLength {
		text = text[:MaxCommentLength]
	}
	return text
}

func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	if sha == "" {
		return "this run"
	}
	return sha
}

func (p *publisher) findComment(ctx context.Context, pr int) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		comments, resp, err := p.client.Issues.ListComments(ctx, p.owner, p.repo, pr, opts)
		if err != nil {
			return nil, err
		}
		for _, c := range comments {
			if p.ours(ctx, c) {
				return c, nil
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
}
