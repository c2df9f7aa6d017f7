package main

import "testing"

// TestIsPage pins fetch's page rule: base's kind of the Content-Type,
// else of the sniffed bytes; XHTML served as such is a page.
func TestIsPage(t *testing.T) {
	for _, tc := range []struct {
		ct, body string
		want     bool
	}{
		{"text/html", "", true},
		{"TEXT/HTML; charset=windows-1252", "", true},
		{"text/html;;", "", true},
		{"application/xhtml+xml", "", true},
		{"text/css", "<!DOCTYPE html>", false},
		{"image/png", "<html>", false},
		{"application/json", "<html>", false},
		{"text/html garbage", "", false},
		{"", "<!DOCTYPE html><p>", true},
		{"; charset=utf-8", "  <html>", true},
		{"", "plain text, <a href=x>", false},
		{"", "\x89PNG\r\n\x1a\n", false},
	} {
		if got := isPage(tc.ct, []byte(tc.body)); got != tc.want {
			t.Errorf("isPage(%q, %q) = %v, want %v", tc.ct, tc.body, got, tc.want)
		}
	}
}
