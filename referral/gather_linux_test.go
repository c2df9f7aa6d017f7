package referral_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/referral"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGatherReadsPagesOnce: every document is opened once. In a
// tree whose pages tell the kinds of other files (stylesheets in a legacy
// page's encoding, module scripts importing modules, an import map, a
// manifest: referSite), a walk with Reader.Gather opens each page
// once in all (inotify counts every open, whoever makes it) for a
// rewrite, links or check (the walk hands the descriptor it sniffed the
// kind through to the pass, one worker or four), twice for check --fix
// (Update opens the file again as it replaces it). The walk that reads the pages for
// referrals first opened each four times (its own walk sniffs every file
// again, then reads the page). What the runs produce is checked by
// TestGatherAgrees and below.
func TestGatherReadsPagesOnce(t *testing.T) {
	site := referSite()
	dir := testkit.NewTree(t, site)
	var pages []string
	for name := range site {
		if strings.HasSuffix(name, ".html") {
			pages = append(pages, name)
		}
	}
	slices.Sort(pages)
	runs := map[string]func(refer *referral.Reader) error{}
	for _, jobs := range []int{1, 4} {
		runs[fmt.Sprintf("rewrite -j %d", jobs)] = func(refer *referral.Reader) error {
			_, opts := referOptions(refer)
			r := &treerewrite.Rewriter{Mapper: refer.Mapper, Options: opts, Mirror: t.TempDir(), Writer: safewrite.Writer{NoSync: true}}
			for res := range r.All((tree.Walker{Refer: refer}).Walk([]string{dir}), jobs) {
				if res.Err != nil {
					return res.Err
				}
			}
			return nil
		}
	}
	runs["links"] = func(refer *referral.Reader) error {
		_, opts := referOptions(refer)
		hv := &harvest.Reader{Mapper: refer.Mapper, Options: opts, Spec: resolve.WHATWG}
		var mu sync.Mutex
		n := 0
		for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
			if err != nil {
				return err
			}
			if res := hv.File(f, func(base.Format, link.Link) error { mu.Lock(); n++; mu.Unlock(); return nil }, nil); res.Err != nil {
				return res.Err
			}
		}
		if n == 0 {
			return fmt.Errorf("no links")
		}
		return nil
	}
	for name, run := range runs {
		for _, gather := range []bool{true, false} {
			refer, _ := newReferrals(t, gather)
			c, err := testkit.CountOpens(dir)
			require.NoError(t, err)
			require.NoError(t, run(refer), name)
			opens, err := c.Stop()
			require.NoError(t, err)
			for _, p := range pages {
				switch {
				case gather:
					// The walk's descriptor, handed to the pass.
					assert.Equal(t, 1, opens[p], "%s: %s: one open for the sniff and the pass", name, p)
				case opens[p] <= 2:
					t.Errorf("%s without Gather: %s opened %d times (the test counts nothing)", name, p, opens[p])
				}
			}
		}
	}
	// check, and check --fix: the findings are the same.
	for _, fix := range []bool{false, true} {
		var want []string
		for _, gather := range []bool{false, true} {
			d := testkit.NewTree(t, site)
			ck := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: d, Root: "https://www.example/"}
			refer := ck.Referrals()
			require.NotNil(t, refer)
			refer.Gather = gather
			c, err := testkit.CountOpens(d)
			require.NoError(t, err)
			var got []string
			for f, err := range (tree.Walker{Refer: refer}).Walk([]string{d}) {
				require.NoError(t, err)
				var res linkcheck.FileResult
				if fix {
					res = ck.FixFile(f, safewrite.Writer{NoSync: true})
				} else {
					res = ck.CheckFile(f)
				}
				require.NoError(t, res.Err, f.Rel)
				for _, fd := range res.Findings {
					got = append(got, fmt.Sprintf("%s %s %s %v", f.Rel, f.Kind, fd.URL, fd.Problem))
				}
			}
			opens, err := c.Stop()
			require.NoError(t, err)
			slices.Sort(got)
			if !gather {
				want = got
				continue
			}
			assert.Equal(t, want, got, "fix %v", fix)
			for _, p := range pages {
				if fix {
					// Update opens the file again, through its directories,
					// as it replaces it.
					assert.Equal(t, 2, opens[p], "check --fix: %s: one sniff, one read", p)
				} else {
					assert.Equal(t, 1, opens[p], "check: %s: one open for the sniff and the read", p)
				}
			}
		}
	}
}
