package summary

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
	"github.com/stretchr/testify/assert"
)

func TestOf(t *testing.T) {
	refused := &fs.PathError{Op: "rename", Path: "p", Err: safewrite.ErrSymlink}
	incomplete := fmt.Errorf("x: %w", link.ErrIncomplete)
	for _, c := range []struct {
		name string
		r    treerewrite.Result
		want Rewrite
	}{
		{"changed", treerewrite.Result{Read: true, Changed: true, Links: 3, Rewritten: 2, Failed: 1, Warnings: []string{"w"}},
			Rewrite{Files: 1, Changed: 1, Links: 3, Rewritten: 2, FailedLinks: 1, Warnings: 1}},
		{"unchanged", treerewrite.Result{Read: true, Links: 1}, Rewrite{Files: 1, Unchanged: 1, Links: 1}},
		{"up to date", treerewrite.Result{Read: true, UpToDate: true, Links: 1, Rewritten: 1}, Rewrite{Files: 1, UpToDate: 1, Links: 1}}, // nothing rewritten this run, as a second -i
		{"copied", treerewrite.Result{Copied: true}, Rewrite{Copied: 1}},
		{"skipped", treerewrite.Result{Skipped: true}, Rewrite{Skipped: 1}},
		{"walk error", treerewrite.Result{Err: errors.New("stat")}, Rewrite{Failed: 1}},
		{"copy refused is no document's refusal", treerewrite.Result{Err: refused}, Rewrite{Failed: 1}},
		{"failed: links not counted", treerewrite.Result{Read: true, Err: errors.New("x"), Links: 4, Warnings: []string{"a", "b"}},
			Rewrite{Files: 1, Failed: 1, Warnings: 2}},
		{"refused", treerewrite.Result{Read: true, Err: refused}, Rewrite{Files: 1, Failed: 1, Refused: 1}},
		{"incomplete", treerewrite.Result{Read: true, Err: incomplete}, Rewrite{Files: 1, Failed: 1, Incomplete: 1}},
		// Over --max-size is over a limit: incomplete, as a reader's
		// limit is (tree.Incomplete, the one rule).
		{"copied unchanged", treerewrite.Result{Read: true, Err: tree.ErrTooLarge, CopiedUnchanged: true}, Rewrite{Files: 1, Failed: 1, Unrewritten: 1, Incomplete: 1}},
		{"copied unchanged, not over a limit", treerewrite.Result{Read: true, Err: errors.New("x"), CopiedUnchanged: true}, Rewrite{Files: 1, Failed: 1, Unrewritten: 1}},
		{"owner not kept", treerewrite.Result{Read: true, Err: fmt.Errorf("owned by 0:0: %w", safewrite.ErrOwner)}, Rewrite{Files: 1, Failed: 1, Refused: 1}},
	} {
		assert.Equal(t, c.want, Of(c.r), c.name)
	}
}

func TestWriteLine(t *testing.T) {
	var b bytes.Buffer
	Rewrite{Files: 3, Changed: 1, Rewritten: 5, FailedLinks: 2}.WriteLine(&b)
	assert.Equal(t, "relurl: rewrite: 3 files read, 1 changed, 5 links rewritten, 2 links failed\n", b.String())
	b.Reset()
	Rewrite{Files: 9, Changed: 1, UpToDate: 2, Unchanged: 3, Copied: 4, Failed: 3, Refused: 1, Unrewritten: 1, Incomplete: 1, Warnings: 7}.WriteLine(&b)
	assert.Equal(t, "relurl: rewrite: 9 files read, 1 changed, 0 links rewritten, 0 links failed, 2 up to date, 3 unchanged, 4 other files copied, 3 files failed (1 not written for safety) (1 copied unchanged) (1 incomplete), 7 warnings\n", b.String())
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	var c Rewrite
	c.Add(Rewrite{Files: 2, Changed: 1, Unchanged: 1, Links: 4, Rewritten: 3})
	c.Add(Rewrite{Failed: 1, Warnings: 1})
	c.WriteJSON(&b)
	// up_to_date and unchanged are left out when zero (docs/output.md).
	assert.Equal(t, `{"files":2,"changed":1,"unchanged":1,"links":4,"rewritten":3,"failed_links":0,"failed":1,"copied":0,"skipped":0,"refused":0,"unrewritten":0,"incomplete":0,"warnings":1}`+"\n", b.String())
}
