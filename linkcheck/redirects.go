package linkcheck

import (
	"fmt"
	"iter"
	"regexp"
	"strconv"
	"strings"
)

// A redirect is one rule of a host's redirect file.
type redirect struct {
	line   int    // in the file, 1-based
	from   string // the URL path it matches ("/old", "/docs/*", "/a/:id")
	re     *regexp.Regexp
	prefix bool   // Apache Redirect: from is a path prefix (whole segments)
	to     string // the destination; "" for gone
	status int    // 301, 302, 200 (a rewrite), 404, 410 ...
	force  bool   // applies even when a file matches (Netlify "!")
	groups bool   // Apache RedirectMatch: "$1" in to names a group
}

// maxRedirectRules bounds the rules read from a redirect file (Cloudflare
// Pages takes 2,100); maxRedirectLine bounds a line (Cloudflare: 1,000
// characters); maxRedirectFile bounds the file.
const (
	maxRedirectRules = 10000
	maxRedirectLine  = 4096
	maxRedirectFile  = 4 << 20
)

// parseNetlifyRedirects reads a _redirects file (Netlify "Redirects and
// rewrites", Cloudflare Pages "Redirects"): one rule a line, "FROM TO
// [STATUS[!]]", "#" comments, "*" splat and ":name" placeholders, status
// 301 by default. Rules with conditions (Country=, Role=, ...) or a
// source with a host are skipped: a static tree cannot say when they hold.
func parseNetlifyRedirects(data, name string) ([]redirect, []string) {
	var rules []redirect
	var warns []string
	for n, line := range redirectLines(data, name, &warns) {
		if len(rules) == maxRedirectRules {
			warns = append(warns, fmt.Sprintf("%s: more than %d rules: the rest are ignored", name, maxRedirectRules))
			break
		}
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if !strings.HasPrefix(f[0], "/") {
			warns = append(warns, fmt.Sprintf("%s line %d: a source that is not a path (%s): rule not modelled", name, n, f[0]))
			continue
		}
		rule := redirect{line: n, from: f[0], to: f[1], status: 301}
		skip := false
		for _, extra := range f[2:] {
			if strings.HasPrefix(extra, "#") {
				break
			}
			code, force := strings.CutSuffix(extra, "!")
			if s, err := strconv.Atoi(code); err == nil && s >= 200 && s < 600 {
				rule.status, rule.force = s, force
				continue
			}
			skip = true // a condition: Country=, Language=, Role=, ...
		}
		if skip {
			warns = append(warns, fmt.Sprintf("%s line %d: a rule with conditions: not modelled", name, n))
			continue
		}
		rule.re = netlifyPattern(rule.from)
		rules = append(rules, rule)
	}
	return rules, warns
}

// netlifyPattern compiles a _redirects source: "*" at the end matches the
// rest (":splat"), ":name" one segment; a source matches with or without
// a final "/".
func netlifyPattern(from string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	from = strings.TrimSuffix(from, "/")
	segs := strings.Split(from, "/")
	for i, seg := range segs {
		if i > 0 {
			b.WriteString("/")
		}
		switch {
		case seg == "*" && i == len(segs)-1:
			b.WriteString("(?P<splat>.*)")
		case strings.HasPrefix(seg, ":") && len(seg) > 1 && isWord(seg[1:]):
			b.WriteString("(?P<" + seg[1:] + ">[^/]+)")
		case strings.HasSuffix(seg, "*") && i == len(segs)-1:
			b.WriteString(regexp.QuoteMeta(seg[:len(seg)-1]) + "(?P<splat>.*)")
		default:
			b.WriteString(regexp.QuoteMeta(seg))
		}
	}
	b.WriteString("/?$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

func isWord(s string) bool {
	for _, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// parseHtaccess reads the mod_alias lines of an Apache .htaccess file:
// "Redirect [STATUS] URL-PATH [URL]", "RedirectMatch [STATUS] REGEX
// [URL]", "RedirectPermanent" and "RedirectTemp" (Apache httpd
// mod_alias). STATUS is permanent, temp, seeother, gone or a number; the
// default is 302. Other directives (RewriteRule needs mod_rewrite's whole
// machinery) are ignored. Directive names are case-insensitive.
func parseHtaccess(data, name string) ([]redirect, []string) {
	var rules []redirect
	var warns []string
	rewrites := 0
	for n, line := range redirectLines(data, name, &warns) {
		if len(rules) == maxRedirectRules {
			warns = append(warns, fmt.Sprintf("%s: more than %d rules: the rest are ignored", name, maxRedirectRules))
			break
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if strings.EqualFold(f[0], "RewriteRule") {
			rewrites++
		}
		rule := redirect{line: n, status: 302}
		args := f[1:]
		switch strings.ToLower(f[0]) {
		case "redirect", "redirectmatch":
			if s, ok := apacheStatus(args[0]); ok {
				rule.status, args = s, args[1:]
			}
		case "redirectpermanent":
			rule.status = 301
		case "redirecttemp":
			rule.status = 302
		default:
			continue
		}
		if len(args) == 0 {
			continue
		}
		rule.from = unquote(args[0])
		if len(args) > 1 {
			rule.to = unquote(args[1])
		}
		if rule.to == "" && rule.status >= 300 && rule.status < 400 {
			continue // a redirect needs a URL
		}
		rule.force = true
		if strings.EqualFold(f[0], "redirectmatch") {
			re, err := regexp.Compile(rule.from)
			if err != nil {
				warns = append(warns, fmt.Sprintf("%s line %d: RedirectMatch pattern: %v", name, n, err))
				continue
			}
			rule.re, rule.groups = re, true
		} else {
			rule.prefix = true
		}
		rules = append(rules, rule)
	}
	if rewrites > 0 {
		warns = append(warns, fmt.Sprintf("%s: %d RewriteRule lines: mod_rewrite is not modelled", name, rewrites))
	}
	return rules, warns
}

// redirectLines yields the lines of a redirect file with their numbers;
// a line longer than maxRedirectLine is skipped with a warning.
func redirectLines(data, name string, warns *[]string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for n := 1; data != ""; n++ {
			line, rest, _ := strings.Cut(data, "\n")
			data = rest
			if len(line) > maxRedirectLine {
				*warns = append(*warns, fmt.Sprintf("%s line %d: longer than %d bytes: skipped", name, n, maxRedirectLine))
				continue
			}
			if !yield(n, strings.TrimSuffix(line, "\r")) {
				return
			}
		}
	}
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// apacheStatus reads mod_alias's status argument.
func apacheStatus(s string) (int, bool) {
	switch strings.ToLower(s) {
	case "permanent":
		return 301, true
	case "temp":
		return 302, true
	case "seeother":
		return 303, true
	case "gone":
		return 410, true
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 300 && n < 600 {
		return n, true
	}
	return 0, false
}

// match returns the destination the rule gives the URL path p ("/a/b"),
// or false.
func (r *redirect) match(p string) (string, bool) {
	if r.prefix {
		// mod_alias matches whole segments: "/a" matches "/a" and "/a/x",
		// not "/ab"; the rest of the path is appended to the URL.
		if strings.HasSuffix(r.from, "/") || p == r.from || strings.HasPrefix(p, r.from+"/") {
			if strings.HasPrefix(p, r.from) {
				return r.to + p[len(r.from):], true
			}
		}
		return "", false
	}
	if r.re == nil {
		return "", false
	}
	m := r.re.FindStringSubmatchIndex(p)
	if m == nil {
		return "", false
	}
	if r.groups {
		return expandGroups(r.to, p, m), true
	}
	to := r.to
	for i, name := range r.re.SubexpNames() {
		if name == "" || m[2*i] < 0 {
			continue
		}
		to = strings.ReplaceAll(to, ":"+name, p[m[2*i]:m[2*i+1]])
	}
	return to, true
}

// expandGroups replaces "$0" to "$9" in to by the groups of a match m of
// p, as mod_alias's RedirectMatch does ("$10" is "$1" then "0").
func expandGroups(to, p string, m []int) string {
	var b strings.Builder
	for i := 0; i < len(to); i++ {
		if to[i] == '$' && i+1 < len(to) && '0' <= to[i+1] && to[i+1] <= '9' {
			g := int(to[i+1] - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				b.WriteString(p[m[2*g]:m[2*g+1]])
			}
			i++
			continue
		}
		b.WriteByte(to[i])
	}
	return b.String()
}
