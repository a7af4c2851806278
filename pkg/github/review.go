package github

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v60/github"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/report"
)

// reviewMarker tags each review comment with what it is about, so a rerun does not post it
// twice.
func reviewMarker(f findings.Finding, root string) string {
	return fmt.Sprintf("<!-- eni-lint:%s:%s:%d -->", f.Rule, filepath.ToSlash(filepath.Clean(report.FromRoot(root, f.Location.File))), f.Location.Line)
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// changedLines returns the lines of the new file that a unified-diff patch adds or keeps as
// context: the lines GitHub accepts review comments on.
func changedLines(patch string) map[int]bool {
	lines := map[int]bool{}
	n := 0
	for _, l := range strings.Split(patch, "\n") {
		if m := hunkHeader.FindStringSubmatch(l); m != nil {
			n, _ = strconv.Atoi(m[1])
			continue
		}
		if n == 0 || l == "" {
			continue
		}
		switch l[0] {
		case '+', ' ':
			lines[n] = true
			n++
		case '-', '\\':
		}
	}
	return lines
}

// suggestable is the finding's edit when it can be a suggestion: one edit of one existing file,
// the file the comment is on, every line of it commentable.
func suggestable(f findings.Finding, root, path string, commentable map[int]bool) (findings.Edit, bool) {
	if len(f.Edits) != 1 {
		return findings.Edit{}, false
	}
	e := f.Edits[0]
	if e.NewFile || filepath.ToSlash(filepath.Clean(report.FromRoot(root, e.File))) != path || e.StartLine < 1 || e.EndLine < e.StartLine {
		return findings.Edit{}, false
	}
	for l := e.StartLine; l <= e.EndLine; l++ {
		if !commentable[l] {
			return findings.Edit{}, false
		}
	}
	return e, true
}

// suggestion is a GitHub suggestion block with the lines' new text, in a fence longer than any
// run of backticks in it (the text comes from the pull request).
func suggestion(text string) string {
	text = strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r"), "\r\n", "\n")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "suggestion\n" + text + "\n" + fence
}

func (p *publisher) review(ctx context.Context, pr int, rep *findings.Report) {
	files, ok := p.changedFiles(ctx, pr)
	if !ok {
		return
	}
	posted, ok := p.postedMarkers(ctx, pr)
	if !ok {
		return
	}
	var comments []*gh.DraftReviewComment
	for _, f := range rep.Findings {
		// The pull request's files are named from the repository root.
		path := filepath.ToSlash(filepath.Clean(report.FromRoot(p.opts.Root, f.Location.File)))
		marker := reviewMarker(f, p.opts.Root)
		if f.Suppressed != nil || !files[path][f.Location.Line] || posted[marker] {
			continue
		}
		comments = append(comments, p.reviewComment(f, path, marker, files[path]))
	}
	if len(comments) == 0 {
		return
	}
	review := &gh.PullRequestReviewRequest{
		CommitID: gh.String(p.env.SHA), Event: gh.String("COMMENT"),
		Body:     gh.String(fmt.Sprintf("eni-lint: %d finding(s) on lines this pull request changes.", len(comments))),
		Comments: comments,
	}
	if p.env.SHA == "" {
		review.CommitID = nil
	}
	if _, _, err := p.client.PullRequests.CreateReview(ctx, p.owner, p.repo, pr, review); err != nil {
		p.apiFailed("creating the review", err)
		return
	}
	if len(comments) == 1 {
		p.say("reviewed", "posted 1 review comment")
	} else {
		p.say("reviewed", "posted %d review comments", len(comments))
	}
}

// changedFiles lists the pull request's files with the lines it changes in each; ok is false
// when the API failed (said).
func (p *publisher) changedFiles(ctx context.Context, pr int) (map[string]map[int]bool, bool) {
	files := map[string]map[int]bool{}
	opts := &gh.ListOptions{PerPage: 100}
	for {
		page, resp, err := p.client.PullRequests.ListFiles(ctx, p.owner, p.repo, pr, opts)
		if err != nil {
			p.apiFailed("listing changed files", err)
			return nil, false
		}
		for _, f := range page {
			files[f.GetFilename()] = changedLines(f.GetPatch())
		}
		if resp == nil || resp.NextPage == 0 {
			return files, true
		}
		opts.Page = resp.NextPage
	}
}

// postedMarkers are the markers of the findings eni-lint's own review comments already
// carry; ok is false when the API failed (said).
func (p *publisher) postedMarkers(ctx context.Context, pr int) (map[string]bool, bool) {
	posted := map[string]bool{}
	copts := &gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		page, resp, err := p.client.PullRequests.ListComments(ctx, p.owner, p.repo, pr, copts)
		if err != nil {
			p.apiFailed("listing review comments", err)
			return nil, false
		}
		for _, c := range page {
			// Only eni-lint's own comments say a finding was posted: a marker another author
			// copies must not keep a finding's comment away.
			if i := strings.Index(c.GetBody(), "<!-- eni-lint:"); i >= 0 && c.GetUser().GetLogin() == p.identity(ctx) {
				posted[c.GetBody()[i:]] = true
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return posted, true
		}
		copts.Page = resp.NextPage
	}
}

// reviewComment is a finding's comment on its line, with the fix as a suggestion when it
// replaces changed lines, and cut to GitHub's limit.
func (p *publisher) reviewComment(f findings.Finding, path, marker string, changed map[int]bool) *gh.DraftReviewComment {
	comment := &gh.DraftReviewComment{Path: gh.String(path), Line: gh.Int(f.Location.Line), Side: gh.String("RIGHT")}
	body := fmt.Sprintf("**%s** (%s): %s\n\n`eni-lint explain %s` tells how to fix it.\n%s", f.Rule, f.Severity, report.MarkdownMessage(f), f.Rule, marker)
	if e, ok := suggestable(f, p.opts.Root, path, changed); ok {
		// The comment covers the lines the fix replaces, and its suggestion holds exactly
		// their new text: a reviewer applies it with one click.
		comment.Line = gh.Int(e.EndLine)
		if e.StartLine != e.EndLine {
			comment.StartLine, comment.StartSide = gh.Int(e.StartLine), gh.String("RIGHT")
		}
		body = fmt.Sprintf("**%s** (%s): %s\n\n%s\n\n`eni-lint fix` writes this change; `eni-lint explain %s` tells why.\n%s", f.Rule, f.Severity, report.MarkdownMessage(f), suggestion(e.Text), f.Rule, marker)
	}
	if len(body) > MaxCommentLength {
		// GitHub refuses a comment over 65,536 characters, and with it the whole review:
		// the message is cut, and the suggestion dropped, so the rest still goes out.
		comment.Line, comment.StartLine, comment.StartSide = gh.Int(f.Location.Line), nil, nil
		msg := report.MarkdownMessage(f)
		room := MaxCommentLength - len(marker) - 400
		if len(msg) > room {
			msg = strings.ToValidUTF8(msg[:room], "") + " …"
		}
		body = fmt.Sprintf("**%s** (%s): %s\n\n(cut to GitHub's comment limit: the job summary and the annotations have it all.) `eni-lint explain %s` tells how to fix it.\n%s", f.Rule, f.Severity, msg, f.Rule, marker)
	}
	comment.Body = gh.String(body)
	return comment
}
