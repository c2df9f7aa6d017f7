package xmlrewrite

import (
	"bytes"

	"github.com/relurl/relurl/link"
)

// Namespaces (Namespaces in XML 1.0 §3; each format's own specification).
const (
	nsXML     = "http://www.w3.org/XML/1998/namespace"
	nsXMLNS   = "http://www.w3.org/2000/xmlns/"
	nsSVG     = "http://www.w3.org/2000/svg"
	nsXLink   = "http://www.w3.org/1999/xlink"
	nsXHTML   = "http://www.w3.org/1999/xhtml"
	nsAtom    = "http://www.w3.org/2005/Atom"
	nsRSS1    = "http://purl.org/rss/1.0/"
	nsContent = "http://purl.org/rss/1.0/modules/content/"
	nsMedia   = "http://search.yahoo.com/mrss/"
	nsITunes  = "http://www.itunes.com/dtds/podcast-1.0.dtd"
)

// Format is the kind of XML document, told by its root element.
type Format int

// The formats whose links xmlrewrite knows.
const (
	XML   Format = iota // another XML vocabulary: only xml-stylesheet and the elements of the others
	SVG                 // root svg in the SVG namespace (image/svg+xml)
	XHTML               // root html in the XHTML namespace (application/xhtml+xml)
	Atom                // root feed or entry in the Atom namespace (RFC 4287)
	RSS                 // root rss (RSS 2.0), or rdf:RDF (RSS 1.0)
)

// String returns "xml", "svg", "xhtml", "atom" or "rss".
func (f Format) String() string {
	return [...]string{"xml", "svg", "xhtml", "atom", "rss"}[f]
}

// feed reports whether f is a feed, where xml:base is honoured.
func (f Format) feed() bool { return f == Atom || f == RSS }

// svgHref lists the SVG elements whose href (or xlink:href) is a URL
// (SVG 2 "Linking", its element summary, and SVG 1.1 for the elements it
// alone has), with what following it does.
var svgHref = map[string]link.Kind{
	"a":     link.Navigation,
	"image": link.Resource, "script": link.Resource, "use": link.Resource,
	"feImage": link.Resource, "linearGradient": link.Resource,
	"radialGradient": link.Resource, "pattern": link.Resource,
	"textPath": link.Resource, "mpath": link.Resource,
	"animate": link.Resource, "animateMotion": link.Resource,
	"animateTransform": link.Resource, "set": link.Resource,
	"discard": link.Resource, "filter": link.Resource,
	"tref": link.Resource, "altGlyph": link.Resource,
	"glyphRef": link.Resource, "cursor": link.Resource,
	"font-face-uri": link.Resource, "color-profile": link.Resource,
	"animateColor": link.Resource,
}

// svgCSS lists the SVG attributes whose values are CSS that may hold
// url(): style and the presentation attributes that take a URL.
var svgCSS = map[string]bool{
	"style": true, "fill": true, "stroke": true, "clip-path": true, "mask": true,
	"filter": true, "marker-start": true, "marker-mid": true, "marker-end": true,
	"cursor": true,
}

// content says how an element's content is read.
type content uint8

const (
	plainContent content = iota // markup like any other
	urlContent                  // a URL as text (Atom icon, RSS link)
	htmlContent                 // escaped HTML (Atom type="html", RSS description)
	cssContent                  // a style sheet (SVG and XHTML <style>)
)

// element is what xmlrewrite needs to know of an element.
type element struct {
	ns, local string
	parent    string // the parent's local name
	attrs     []attr
	src       []byte
	lookup    func(prefix string) string
	// hrefs: 0 not looked for yet, 1 the element has a plain href, 2
	// not (asked per xlink:href: once per tag, not once per attribute)
	hrefs uint8
}

// plainHref reports whether e has an href attribute without a namespace.
func (e *element) plainHref() bool {
	if e.hrefs == 0 {
		e.hrefs = 2
		if _, ok := e.attrValue("", "href"); ok {
			e.hrefs = 1
		}
	}
	return e.hrefs == 1
}

// attrValue returns the raw value of the attribute in namespace ns (""
// for none) called local.
func (e *element) attrValue(ns, local string) ([]byte, bool) {
	for _, a := range e.attrs {
		ans, al := e.attrName(a.name)
		if ans == ns && al == local && a.v0 >= 0 {
			return e.src[a.v0:a.v1], true
		}
	}
	return nil, false
}

// attrName returns the namespace and local name of an attribute:
// unprefixed attributes are in no namespace (Namespaces in XML §6.2).
func (e *element) attrName(q string) (string, string) {
	i := bytes.IndexByte([]byte(q), ':')
	if i < 0 {
		return "", q
	}
	return e.lookup(q[:i]), q[i+1:]
}

// contentOf says how the content of e is read in a document of format f.
func contentOf(f Format, e *element) content {
	switch e.ns {
	case nsSVG, nsXHTML:
		if e.local == "style" {
			return cssContent
		}
	case nsAtom:
		switch e.local {
		case "icon", "logo", "uri":
			return urlContent // RFC 4287 §4.2.5, §4.2.10, §3.2.3
		case "title", "subtitle", "summary", "content", "rights":
			// Text constructs (§3.1.1.2) and content (§4.1.3.3).
			if t, _ := e.attrValue("", "type"); string(t) == "html" {
				return htmlContent
			}
		}
	case nsContent:
		if e.local == "encoded" {
			return htmlContent
		}
	case nsRSS1:
		if e.local == "link" || e.local == "url" {
			return urlContent
		}
	case "":
		if f != RSS {
			break
		}
		switch e.local {
		case "link", "docs", "comments":
			return urlContent
		case "url":
			if e.parent == "image" {
				return urlContent
			}
		case "guid":
			// "If the guid element has an attribute named isPermaLink
			// with a value of false, the reader may assume that it is not
			// a URL" (RSS 2.0, <guid>).
			if p, _ := e.attrValue("", "isPermaLink"); string(p) != "false" {
				return urlContent
			}
		case "description":
			return htmlContent
		}
	}
	return plainContent
}

// attrKind says whether the attribute (ns, local) of e is a URL in a
// document of format f, and of which kind; css reports a CSS value.
func attrKind(f Format, e *element, ns, local string) (kind link.Kind, url, css bool) {
	switch e.ns {
	case nsSVG:
		if local == "href" && (ns == "" || ns == nsXLink) {
			k, ok := svgHref[e.local]
			if ok && ns == nsXLink {
				// "the value of the attribute without a namespace shall be used"
				if e.plainHref() {
					return 0, false, false
				}
			}
			return k, ok, false
		}
		if ns == "" && svgCSS[local] {
			return link.CSS, false, true
		}
	case nsAtom:
		switch {
		case e.local == "link" && local == "href" && ns == "",
			e.local == "content" && local == "src" && ns == "",
			e.local == "generator" && local == "uri" && ns == "":
			return link.Feed, true, false
		}
	case nsMedia:
		if local == "url" && ns == "" {
			return link.Resource, true, false
		}
	case nsITunes:
		if e.local == "image" && local == "href" && ns == "" {
			return link.Resource, true, false
		}
	case "":
		if f == RSS && ns == "" && local == "url" && (e.local == "enclosure" || e.local == "source") {
			return link.Feed, true, false
		}
	}
	return 0, false, false
}
