package htmlrewrite

// The URL-bearing attributes: the HTML Living Standard's, HTML 4.01's %URI
// attributes (W3C "Index of Attributes"), the legacy ones browsers still
// honour (LS §15 rendering, obsolete features) and the SVG/MathML href.
// Values that must never be resolved are simply absent: xmlns, itemtype,
// rel, itemprop, on* handlers, download, target, <meta property=og:*>.

import (
	"strings"

	"github.com/relurl/relurl/link"
)

type tagID uint8

const (
	tagOther tagID = iota
	tagA
	tagApplet
	tagArea
	tagAudio
	tagBase
	tagBgsound
	tagBlockquote
	tagBody
	tagButton
	tagCommand
	tagDel
	tagEmbed
	tagFig
	tagForm
	tagFrame
	tagHead
	tagHTML
	tagIframe
	tagIlayer
	tagImg
	tagInput
	tagIns
	tagLayer
	tagLink
	tagMap
	tagMath
	tagMenuitem
	tagMeta
	tagNoscript
	tagObject
	tagOverlay
	tagParam
	tagQ
	tagScript
	tagSource
	tagStyle
	tagSvg
	tagTable
	tagTbody
	tagTd
	tagTemplate
	tagTfoot
	tagTh
	tagThead
	tagTr
	tagTrack
	tagVideo
)

// elementName returns the lower-case element name b as a string: for a
// known element the constant, not a new string for every link.
func elementName(b []byte) string {
	if id := tagIDOf(b); id != tagOther {
		return tagNames[id]
	}
	return string(b)
}

// tagNames holds the names tagIDOf knows (TestTagNames).
var tagNames = func() (names [tagVideo + 1]string) {
	for _, n := range []string{"a", "applet", "area", "audio", "base", "bgsound", "blockquote", "body", "button", "command", "del", "embed", "fig", "form", "frame", "head", "html", "iframe", "ilayer", "img", "input", "ins", "layer", "link", "map", "math", "menuitem", "meta", "noscript", "object", "overlay", "param", "q", "script", "source", "style", "svg", "table", "tbody", "td", "template", "tfoot", "th", "thead", "tr", "track", "video"} {
		names[tagIDOf([]byte(n))] = n
	}
	return names
}()

func tagIDOf(name []byte) tagID {
	switch string(name) {
	case "a":
		return tagA
	case "applet":
		return tagApplet
	case "area":
		return tagArea
	case "audio":
		return tagAudio
	case "base":
		return tagBase
	case "bgsound":
		return tagBgsound
	case "blockquote":
		return tagBlockquote
	case "body":
		return tagBody
	case "button":
		return tagButton
	case "command":
		return tagCommand
	case "del":
		return tagDel
	case "embed":
		return tagEmbed
	case "fig":
		return tagFig
	case "form":
		return tagForm
	case "frame":
		return tagFrame
	case "head":
		return tagHead
	case "html":
		return tagHTML
	case "iframe":
		return tagIframe
	case "ilayer":
		return tagIlayer
	case "img":
		return tagImg
	case "input":
		return tagInput
	case "ins":
		return tagIns
	case "layer":
		return tagLayer
	case "link":
		return tagLink
	case "map":
		return tagMap
	case "math":
		return tagMath
	case "menuitem":
		return tagMenuitem
	case "meta":
		return tagMeta
	case "noscript":
		return tagNoscript
	case "object":
		return tagObject
	case "overlay":
		return tagOverlay
	case "param":
		return tagParam
	case "q":
		return tagQ
	case "script":
		return tagScript
	case "source":
		return tagSource
	case "style":
		return tagStyle
	case "svg":
		return tagSvg
	case "table":
		return tagTable
	case "tbody":
		return tagTbody
	case "td":
		return tagTd
	case "template":
		return tagTemplate
	case "tfoot":
		return tagTfoot
	case "th":
		return tagTh
	case "thead":
		return tagThead
	case "tr":
		return tagTr
	case "track":
		return tagTrack
	case "video":
		return tagVideo
	}
	return tagOther
}

type attrID uint8

const (
	attrOther attrID = iota
	attrAction
	attrArchive
	attrBackground
	attrCite
	attrClassid
	attrCodebase
	attrContent
	attrData
	attrDataBackground
	attrDataBg
	attrDataLazySrc
	attrDataLazySrcset
	attrDataOriginal
	attrDataSrc
	attrDataSrcset
	attrDynsrc
	attrFormaction
	attrHref
	attrHTTPEquiv
	attrIcon
	attrIdent
	attrImagesrcset
	attrItemid
	attrLongdesc
	attrLowsrc
	attrManifest
	attrName
	attrPing
	attrPluginspage
	attrPoster
	attrProfile
	attrRel
	attrSrc
	attrSrcdoc
	attrSrcset
	attrStyle
	attrUsemap
	attrValue
	attrValuetype
	attrXlinkHref
	numAttrs
)

// attrSet is a set of attrIDs.
type attrSet uint64

func (s attrSet) has(id attrID) bool { return s&(1<<id) != 0 }
func (s *attrSet) add(id attrID)     { *s |= 1 << id }

var attrNames = [numAttrs]string{
	attrAction: "action", attrArchive: "archive", attrBackground: "background",
	attrCite: "cite", attrClassid: "classid", attrCodebase: "codebase",
	attrContent: "content", attrData: "data", attrDataBackground: "data-background",
	attrDataBg: "data-bg", attrDataLazySrc: "data-lazy-src", attrDataLazySrcset: "data-lazy-srcset",
	attrDataOriginal: "data-original", attrDataSrc: "data-src", attrDataSrcset: "data-srcset",
	attrDynsrc: "dynsrc", attrFormaction: "formaction", attrHref: "href",
	attrHTTPEquiv: "http-equiv", attrIcon: "icon", attrIdent: "id", attrImagesrcset: "imagesrcset",
	attrItemid: "itemid", attrLongdesc: "longdesc", attrLowsrc: "lowsrc",
	attrManifest: "manifest", attrName: "name", attrPing: "ping",
	attrPluginspage: "pluginspage", attrPoster: "poster", attrProfile: "profile",
	attrRel: "rel", attrSrc: "src", attrSrcdoc: "srcdoc", attrSrcset: "srcset",
	attrStyle: "style", attrUsemap: "usemap", attrValue: "value",
	attrValuetype: "valuetype", attrXlinkHref: "xlink:href",
}

func attrIDOf(name []byte) attrID {
	switch string(name) {
	case "action":
		return attrAction
	case "archive":
		return attrArchive
	case "background":
		return attrBackground
	case "cite":
		return attrCite
	case "classid":
		return attrClassid
	case "codebase":
		return attrCodebase
	case "content":
		return attrContent
	case "data":
		return attrData
	case "data-background":
		return attrDataBackground
	case "data-bg":
		return attrDataBg
	case "data-lazy-src":
		return attrDataLazySrc
	case "data-lazy-srcset":
		return attrDataLazySrcset
	case "data-original":
		return attrDataOriginal
	case "data-src":
		return attrDataSrc
	case "data-srcset":
		return attrDataSrcset
	case "dynsrc":
		return attrDynsrc
	case "formaction":
		return attrFormaction
	case "href":
		return attrHref
	case "http-equiv":
		return attrHTTPEquiv
	case "icon":
		return attrIcon
	case "id":
		return attrIdent
	case "imagesrcset":
		return attrImagesrcset
	case "itemid":
		return attrItemid
	case "longdesc":
		return attrLongdesc
	case "lowsrc":
		return attrLowsrc
	case "manifest":
		return attrManifest
	case "name":
		return attrName
	case "ping":
		return attrPing
	case "pluginspage":
		return attrPluginspage
	case "poster":
		return attrPoster
	case "profile":
		return attrProfile
	case "rel":
		return attrRel
	case "src":
		return attrSrc
	case "srcdoc":
		return attrSrcdoc
	case "srcset":
		return attrSrcset
	case "style":
		return attrStyle
	case "usemap":
		return attrUsemap
	case "value":
		return attrValue
	case "valuetype":
		return attrValuetype
	case "xlink:href":
		return attrXlinkHref
	}
	return attrOther
}

// syntax is the form of a URL-bearing value (notes §1.1).
type syntax uint8

const (
	synNone    syntax = iota
	synURL            // a single URL, potentially surrounded by spaces
	synSpace          // URLs separated by ASCII whitespace
	synComma          // URLs separated by commas
	synSrcset         // LS "parse a srcset attribute"
	synCSS            // a CSS declaration list
	synRefresh        // LS "shared declarative refresh steps"
	synHTML           // a nested document (srcdoc)
)

// rule is how one attribute of one element is read.
type rule struct {
	syn  syntax
	kind link.Kind
	// docURL: resolved against the document's URL, not its base: an empty
	// form action (LS "form submission algorithm" step 8) and the html
	// manifest ("isn't affected by base elements").
	docURL bool
	// codebase: resolved against the element's codebase attribute
	// (HTML 4.01 §13.3: "base URI for classid, data, archive").
	codebase bool
}

// ruleFor returns how attribute a of element t (in foreign content when
// foreign, where linking says whether the element takes an href) is read;
// syn is synNone for values that are not URLs.
func ruleFor(t tagID, a attrID, foreign, linking bool, o *Options) rule {
	switch a {
	case attrStyle:
		return rule{syn: synCSS, kind: link.CSS}
	case attrItemid:
		return rule{syn: synURL, kind: link.Citation}
	case attrDataSrc, attrDataLazySrc, attrDataOriginal, attrDataBg, attrDataBackground:
		if o.LazyLoad {
			return rule{syn: synURL, kind: link.Resource}
		}
		return rule{}
	case attrDataSrcset, attrDataLazySrcset:
		if o.LazyLoad {
			return rule{syn: synSrcset, kind: link.Resource}
		}
		return rule{}
	}
	if foreign {
		// SVG 2 / SVG 1.1 href and xlink:href, MathML 3 href.
		if linking && (a == attrHref || a == attrXlinkHref) {
			if t == tagA {
				return rule{syn: synURL, kind: link.Navigation}
			}
			return rule{syn: synURL, kind: link.Resource}
		}
		return rule{}
	}
	switch a {
	case attrHref:
		switch t {
		case tagA, tagArea:
			return rule{syn: synURL, kind: link.Navigation}
		case tagLink:
			return rule{syn: synURL, kind: link.Resource} // refined by rel
		}
	case attrSrc:
		switch t {
		case tagImg, tagIframe, tagFrame, tagEmbed, tagScript, tagInput, tagAudio,
			tagVideo, tagSource, tagTrack, tagBgsound, tagLayer, tagIlayer, tagFig, tagOverlay:
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrSrcset:
		if t == tagImg || t == tagSource {
			return rule{syn: synSrcset, kind: link.Resource}
		}
	case attrImagesrcset:
		if t == tagLink {
			return rule{syn: synSrcset, kind: link.Resource}
		}
	case attrPing:
		if t == tagA || t == tagArea {
			return rule{syn: synSpace, kind: link.Resource}
		}
	case attrLongdesc:
		if t == tagImg || t == tagIframe || t == tagFrame {
			return rule{syn: synURL, kind: link.Citation}
		}
	case attrUsemap:
		if t == tagImg || t == tagInput || t == tagObject {
			return rule{syn: synURL, kind: link.Navigation}
		}
	case attrLowsrc, attrDynsrc:
		if t == tagImg {
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrSrcdoc:
		if t == tagIframe && o.Srcdoc {
			return rule{syn: synHTML, kind: link.Resource}
		}
	case attrPluginspage:
		if t == tagEmbed {
			return rule{syn: synURL, kind: link.Navigation}
		}
	case attrData:
		if t == tagObject {
			return rule{syn: synURL, kind: link.Resource, codebase: true}
		}
	case attrClassid:
		if t == tagObject {
			return rule{syn: synURL, kind: link.Resource, codebase: true}
		}
	case attrCodebase:
		if t == tagObject || t == tagApplet {
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrArchive:
		switch t {
		case tagObject:
			return rule{syn: synSpace, kind: link.Resource, codebase: true}
		case tagApplet:
			return rule{syn: synComma, kind: link.Resource, codebase: true}
		}
	case attrValue:
		if t == tagParam && o.Param {
			return rule{syn: synURL, kind: link.Resource} // refined by name/valuetype
		}
	case attrFormaction:
		if t == tagInput || t == tagButton {
			return rule{syn: synURL, kind: link.Form, docURL: true}
		}
	case attrAction:
		if t == tagForm {
			return rule{syn: synURL, kind: link.Form, docURL: true}
		}
	case attrPoster:
		if t == tagVideo {
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrCite:
		switch t {
		case tagBlockquote, tagQ, tagDel, tagIns:
			return rule{syn: synURL, kind: link.Citation}
		}
	case attrProfile:
		if t == tagHead {
			return rule{syn: synSpace, kind: link.Citation}
		}
	case attrManifest:
		if t == tagHTML {
			return rule{syn: synURL, kind: link.Resource, docURL: true}
		}
	case attrIcon:
		if t == tagMenuitem || t == tagCommand {
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrBackground:
		switch t {
		case tagBody, tagTable, tagThead, tagTbody, tagTfoot, tagTr, tagTd, tagTh:
			return rule{syn: synURL, kind: link.Resource}
		}
	case attrContent:
		if t == tagMeta {
			return rule{syn: synRefresh, kind: link.Refresh} // only with http-equiv=refresh
		}
	}
	return rule{}
}

// resourceRels are the link types that make <link href> fetch something
// for the page (LS §4.6.7: external resource links); any other rel makes
// it a hyperlink.
var resourceRels = map[string]bool{
	"stylesheet": true, "icon": true, "shortcut": true, "preload": true,
	"modulepreload": true, "prefetch": true, "prerender": true, "manifest": true,
	"apple-touch-icon": true, "apple-touch-icon-precomposed": true, "mask-icon": true,
	"dns-prefetch": true, "preconnect": true, "pingback": true,
}

// relNames holds, as constants, the link types a Link.Rel most often
// has: the HTML Standard's (LS §4.6.7), resourceRels and those common on
// the web. A token among them costs a link no string of its own.
var relNames = func() map[string]string {
	m := map[string]string{}
	for _, r := range []string{
		"alternate", "author", "bookmark", "canonical", "dns-prefetch", "external", "help", "icon",
		"license", "manifest", "me", "modulepreload", "next", "nofollow", "noopener", "noreferrer",
		"opener", "pingback", "preconnect", "prefetch", "preload", "prev", "privacy-policy", "search",
		"stylesheet", "tag", "terms-of-service", "shortcut", "apple-touch-icon",
		"apple-touch-icon-precomposed", "mask-icon", "prerender", "image_src", "publisher",
		"shortlink", "home", "index", "up", "start", "edituri", "wlwmanifest", "sponsored", "ugc",
		"openid.server", "openid.delegate", "profile", "archives", "enclosure", "self", "related",
	} {
		m[r] = r
	}
	for r := range resourceRels {
		m[r] = r
	}
	return m
}()

// relName returns the lower-cased rel token r as a string of its own
// (r may alias the tokenizer's buffer).
func relName(r string) string {
	if c, ok := relNames[r]; ok {
		return c
	}
	return strings.Clone(r)
}

// linking reports whether the element name of the svg or math namespace
// takes an href: SVG 2 (a, image, use, feImage, pattern, the gradients,
// filter, textPath, mpath, script, the animation elements), SVG 1.1
// (tref, altGlyph, glyphRef, cursor, font-face-uri, color-profile) and
// every MathML 3 presentation element.
func linking(math bool, name []byte) bool {
	if math {
		return true
	}
	switch string(name) {
	case "a", "image", "use", "feimage", "pattern", "lineargradient", "radialgradient",
		"filter", "textpath", "mpath", "script", "animate", "animatemotion",
		"animatetransform", "animatecolor", "set", "tref", "altglyph", "glyphref",
		"cursor", "font-face-uri", "color-profile":
		return true
	}
	return false
}
