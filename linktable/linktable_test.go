package linktable_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/relurl/relurl/linktable"
)

// TestRoundTrip writes JSON Lines records in pieces that cut lines, reads
// the table back and compares each row with its JSON record.
func TestRoundTrip(t *testing.T) {
	lines := []string{
		`{"raw":"a.html","url":"https://example.com/a.html","tag":"a","attr":"href","kind":"navigation","rel":["nofollow"],"line":3,"column":9,"offset":40,"file":"x.warc.gz","record":0,"target":"https://example.com/","base":"https://example.com/","base_source":"retrieval"}`,
		`{"raw":"::","error":"invalid","tag":"img","attr":"src","kind":"resource","rel":[],"line":4,"column":1,"offset":70,"file":"p.html","base":"","base_source":"default","inert":true}`,
	}
	var in bytes.Buffer
	for range 3 {
		for _, l := range lines {
			in.WriteString(l + "\n")
		}
	}
	var out bytes.Buffer
	w := linktable.NewWriter(&out)
	b := in.Bytes()
	for len(b) > 0 {
		n := min(len(b), 37)
		if _, err := w.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[linktable.Row](bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6", len(rows))
	}
	for i, r := range rows {
		var want linktable.Row
		if err := json.Unmarshal([]byte(lines[i%2]), &want); err != nil {
			t.Fatal(err)
		}
		if want.Rel == nil {
			want.Rel = []string{}
		}
		if r.Rel == nil {
			r.Rel = []string{}
		}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("row %d: %+v\nwant %+v", i, r, want)
		}
	}
}

// TestStatusLine: a --status line is not a link and is refused.
func TestStatusLine(t *testing.T) {
	w := linktable.NewWriter(new(bytes.Buffer))
	if _, err := w.Write([]byte(`{"status":"ok","file":"a"}` + "\n")); err == nil {
		t.Fatal("status line accepted")
	}
}
