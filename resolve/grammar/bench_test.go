package grammar

import (
	"net/url"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// benchURLs are RFC 3986 §1.1.2's examples and a long real-world link.
var benchURLs = []string{
	"ftp://ftp.is.co.za/rfc/rfc1808.txt",
	"http://www.ietf.org/rfc/rfc2396.txt",
	"ldap://[2001:db8::7]/c=GB?objectClass?one",
	"mailto:John.Doe@example.com",
	"news:comp.infosystems.www.servers.unix",
	"tel:+1-816-555-1212",
	"telnet://192.0.2.16:80/",
	"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
	"https://www.example.com/search/results/page/2?q=relative+urls&lang=en&sort=date#top",
}

func size(urls []string) int64 {
	var n int64
	for _, u := range urls {
		n += int64(len(u))
	}
	return n
}

// BenchmarkValidate measures each grammar on benchURLs, against
// net/url.Parse (which checks less, and builds a URL) as the baseline.
func BenchmarkValidate(b *testing.B) {
	benchmarkURLs(b, benchURLs)
}

// BenchmarkValidateCorpus does the same on the href and src values of the
// real-page corpus A.
func BenchmarkValidateCorpus(b *testing.B) {
	var urls []string
	for _, r := range testkit.RefsA(b) {
		urls = append(urls, r.Ref)
	}
	benchmarkURLs(b, urls)
}

func benchmarkURLs(b *testing.B, urls []string) {
	b.Run("net-url-Parse", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size(urls))
		for b.Loop() {
			for _, u := range urls {
				_, _ = url.Parse(u)
			}
		}
	})
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size(urls))
			for b.Loop() {
				for _, u := range urls {
					_ = Validate(name, u)
				}
			}
		})
	}
}

// BenchmarkHostile measures inputs of MaxLength bytes built to make a
// backtracking matcher explode: the time stays linear.
func BenchmarkHostile(b *testing.B) {
	for _, tt := range []struct{ name, unit string }{
		{"labels", "a-"},   // hostname's *( domainlabel "." ) toplabel
		{"h16", "1:"},      // IPv6address's nine alternatives
		{"segments", "a;"}, // RFC 2396 segment = *pchar *( ";" param )
	} {
		in := "http://[" + strings.Repeat(tt.unit, MaxLength/2-8)
		if tt.name != "h16" {
			in = "http://" + strings.Repeat(tt.unit, MaxLength/2-8)
		}
		for _, name := range Names() {
			b.Run(tt.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					_ = Validate(name, in)
				}
			})
		}
	}
}
