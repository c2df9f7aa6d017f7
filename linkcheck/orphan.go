package linkcheck

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// pageGraph holds, for Checker.Orphans, the tree's pages and the files
// each page's links lead to.
type pageGraph struct {
	mu    sync.Mutex
	pages map[string]bool     // tree-relative paths of the HTML files checked
	links map[string][]string // page -> the tree-relative files its links lead to
}

func (g *pageGraph) page(rel string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pages == nil {
		g.pages = map[string]bool{}
	}
	g.pages[rel] = true
}

// link records that the page from leads to what the host serves for one
// of its links: a file, or a directory, read as its index.html.
func (g *pageGraph) link(from string, to served) {
	target := to.file
	if target == "" && to.dir != "" {
		target = strings.TrimPrefix(to.dir, "./") + "index.html"
	}
	if target == "" || target == from {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.links == nil {
		g.links = map[string][]string{}
	}
	g.links[from] = append(g.links[from], target)
}

// entries returns the pages a reader starts from: Checker.Entries, or the
// tree's index page.
func (c *Checker) entries() []string {
	if len(c.Entries) > 0 {
		return c.Entries
	}
	index := []string{"index.html"}
	if c.host != nil && len(c.host.Index) > 0 {
		index = c.host.Index
	}
	for _, name := range index {
		if c.graph.pages[name] {
			return []string{name}
		}
	}
	return nil
}

// orphans returns an Orphan finding for each page that no chain of links
// leads to from the entry pages; without an entry page, a warning and
// none (every page would be one).
func (c *Checker) orphans() []Finding {
	g := &c.graph
	g.mu.Lock()
	defer g.mu.Unlock()
	entries := c.entries()
	if len(entries) == 0 {
		c.warn("--orphans: the tree has no index.html to start from; name the entry pages (--entry)")
		return nil
	}
	reached := map[string]bool{}
	queue := append([]string(nil), entries...)
	for _, e := range entries {
		reached[e] = true
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, t := range g.links[p] {
			if !reached[t] {
				reached[t] = true
				queue = append(queue, t)
			}
		}
	}
	var out []Finding
	for p := range g.pages {
		if !reached[p] {
			out = append(out, Finding{File: filepath.Join(c.Dir, filepath.FromSlash(p)), Problem: Orphan, Target: p,
				Reason: "no page leads to it from " + strings.Join(entries, ", ")})
		}
	}
	slices.SortFunc(out, func(a, b Finding) int { return strings.Compare(a.File, b.File) })
	return out
}
