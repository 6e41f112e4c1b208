package lower

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// Map maps positions of the driver's source back to the user's. naga
// writes a module from its own representation, so nothing of the user's
// layout survives; what does is names. The map holds an anchor at each
// declaration of the driver's source (module scope, and each local
// variable and parameter) whose name the user's tree declares in the same
// place: a function by its name (an entry point by its place among the
// entry points, since naga renames some), a local by its name in that
// function. A position maps to its nearest anchor before it; a
// module-scope declaration with no counterpart (a polyfill, a variable a
// pass introduced) ends the previous anchor's reach, a local naga made
// (_e2) does not. The zero Map maps
// nothing.
type Map struct {
	user    string
	driver  string
	anchors []anchor // by driver offset
}

type anchor struct {
	driver, user int    // offsets; user -1: no counterpart
	what         string // "fn main", "var acc", ...
}

// User returns the position in the user's source near line and column
// (from 1, the column in characters) of the driver's source, and what is
// there ("fn main", "var acc"); ok is false when the position has no
// counterpart in the user's source.
func (m *Map) User(line, col int) (uline, ucol int, what string, ok bool) {
	if m == nil || len(m.anchors) == 0 {
		return 0, 0, "", false
	}
	off, ok := offsetOf(m.driver, line, col)
	if !ok {
		return 0, 0, "", false
	}
	i := sort.Search(len(m.anchors), func(i int) bool { return m.anchors[i].driver > off }) - 1
	if i < 0 || m.anchors[i].user < 0 {
		return 0, 0, "", false
	}
	a := m.anchors[i]
	uline, ucol = wgsl.Position(m.user, a.user)
	return uline, ucol, a.what, true
}

// newMap makes the Map from the driver's tree f, written as driver (with
// marks when it was printed, else read from driver), to the user's tree
// user, read from source.
func newMap(user *wgsl.File, source string, f *wgsl.File, driver string, marks []wgsl.Mark) *Map {
	m := &Map{user: source, driver: driver}
	if user == nil {
		return m
	}
	offset := func(n wgsl.Node) int { return n.Pos() }
	if marks != nil {
		at := make(map[wgsl.Node]int, len(marks))
		for _, mk := range marks {
			if _, ok := at[mk.Node]; !ok {
				at[mk.Node] = mk.Out
			}
		}
		offset = func(n wgsl.Node) int {
			if o, ok := at[n]; ok {
				return o
			}
			return -1
		}
	}
	globals := map[string]wgsl.Decl{}
	var userEPs []*wgsl.FuncDecl
	for _, d := range user.Decls {
		if name := declName(d); name != "" {
			if _, dup := globals[name]; !dup {
				globals[name] = d
			}
		}
		if fn, ok := d.(*wgsl.FuncDecl); ok && isEntry(fn) {
			userEPs = append(userEPs, fn)
		}
	}
	add := func(n wgsl.Node, u wgsl.Node, what string) {
		o := offset(n)
		if o < 0 {
			return
		}
		a := anchor{driver: o, user: -1, what: what}
		if u != nil {
			a.user = keywordPos(u)
		}
		m.anchors = append(m.anchors, a)
	}
	ep := 0
	for _, d := range f.Decls {
		name := declName(d)
		u := globals[name]
		fn, isFn := d.(*wgsl.FuncDecl)
		if isFn && isEntry(fn) {
			u = nil
			if ep < len(userEPs) {
				u = userEPs[ep]
			}
			ep++
		}
		uf, _ := u.(*wgsl.FuncDecl)
		if isFn != (uf != nil) {
			u = nil // same name, another kind of declaration
		}
		if u == nil {
			add(d, nil, "")
			continue
		}
		add(d, u, kindOf(d)+" "+declName(u))
		if !isFn {
			continue
		}
		locals := map[string]wgsl.Node{}
		for _, p := range uf.Params {
			locals[p.Name] = p
		}
		wgsl.Inspect(uf.Body, func(n wgsl.Node) bool {
			if v, ok := n.(*wgsl.VarDecl); ok {
				if _, dup := locals[v.Name]; !dup {
					locals[v.Name] = v
				}
			}
			return true
		})
		for _, p := range fn.Params {
			if up, ok := locals[p.Name]; ok {
				add(p, up, "parameter "+p.Name)
			}
		}
		wgsl.Inspect(fn.Body, func(n wgsl.Node) bool {
			if v, ok := n.(*wgsl.VarDecl); ok {
				// naga's own locals (_e2) keep the reach of the
				// anchor before them.
				if uv, ok := locals[v.Name]; ok {
					add(v, uv, localKind(uv)+" "+v.Name)
				}
			}
			return true
		})
	}
	sort.SliceStable(m.anchors, func(i, j int) bool { return m.anchors[i].driver < m.anchors[j].driver })
	return m
}

// keywordPos is where a declaration's keyword is, past its attributes.
func keywordPos(n wgsl.Node) int {
	switch n := n.(type) {
	case *wgsl.FuncDecl:
		return n.At
	case *wgsl.VarDecl:
		return n.At
	case *wgsl.Param:
		return n.NamePos
	}
	return n.Pos()
}

func isEntry(fn *wgsl.FuncDecl) bool {
	for _, a := range fn.Attrs {
		if a.Name == "compute" || a.Name == "vertex" || a.Name == "fragment" {
			return true
		}
	}
	return false
}

// declName is the name a module-scope declaration declares, or "".
func declName(d wgsl.Decl) string {
	switch d := d.(type) {
	case *wgsl.VarDecl:
		return d.Name
	case *wgsl.AliasDecl:
		return d.Name
	case *wgsl.StructDecl:
		return d.Name
	case *wgsl.FuncDecl:
		return d.Name
	}
	return ""
}

// kindOf names the kind of a declaration: "fn", "struct", "var", ...
func kindOf(d wgsl.Decl) string {
	switch d := d.(type) {
	case *wgsl.VarDecl:
		return d.Keyword
	case *wgsl.AliasDecl:
		return "alias"
	case *wgsl.StructDecl:
		return "struct"
	}
	return "fn"
}

// localKind names what a user's local is: "var", "let", "const" or
// "parameter".
func localKind(n wgsl.Node) string {
	if v, ok := n.(*wgsl.VarDecl); ok {
		return v.Keyword
	}
	return "parameter"
}

// offsetOf is the byte offset of line and column (from 1; the column in
// characters) in source.
func offsetOf(source string, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(source[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(source) || source[off] == '\n' {
			return off, true // past the line's end: its end
		}
		_, n := utf8.DecodeRuneInString(source[off:])
		off += n
	}
	return off, true
}

// userPosition maps line and column of printed, which SprintMarks wrote
// (with marks) from a tree read from source, back to source: the last
// node begun at or before the position, plus the distance into it where
// the text up to there is the same in both.
func userPosition(source, printed string, marks []wgsl.Mark, line, col int) (int, int) {
	off, ok := offsetOf(printed, line, col)
	if !ok {
		return line, col
	}
	i := sort.Search(len(marks), func(i int) bool { return marks[i].Out > off }) - 1
	for ; i >= 0 && marks[i].Node.Pos() < 0; i-- {
	}
	if i < 0 {
		return line, col
	}
	at := marks[i].Node.Pos()
	if d := off - marks[i].Out; at+d <= len(source) && source[at:at+d] == printed[marks[i].Out:off] {
		at += d
	}
	return wgsl.Position(source, at)
}

// Annotate returns msg, a message of the driver's compiler about the
// driver's source, with the user's position added for the first
// "wgsl:LINE:COL" it names: "…; in the user's source near wgsl:3:5 (var
// acc)". A message without one, or whose position has no counterpart, is
// returned as it is.
func (m *Map) Annotate(msg string) string {
	for rest := msg; ; {
		i := strings.Index(rest, "wgsl:")
		if i < 0 {
			return msg
		}
		rest = rest[i+len("wgsl:"):]
		line, n := leadingInt(rest)
		if n == 0 || n >= len(rest) || rest[n] != ':' {
			continue
		}
		col, k := leadingInt(rest[n+1:])
		if k == 0 {
			continue
		}
		ul, uc, what, ok := m.User(line, col)
		if !ok {
			return msg
		}
		return strings.TrimRight(msg, "\n ") + "; in the user's source near wgsl:" + strconv.Itoa(ul) + ":" + strconv.Itoa(uc) + " (" + what + ")"
	}
}

// leadingInt parses the decimal digits s begins with, and how many bytes
// they take.
func leadingInt(s string) (v, n int) {
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int(s[n]-'0')
		n++
	}
	return v, n
}

// Anchor is one anchor of a [Map], as [Map.Anchors] exports it and
// [RestoreMap] takes it back: a kernel cache keeps a map without its two
// sources, which it has (the user's) or keeps anyway (the driver's).
type Anchor struct {
	Driver int    `json:"d"`           // offset in the driver's source
	User   int    `json:"u"`           // offset in the user's; -1: no counterpart
	What   string `json:"w,omitempty"` // "fn main", "var acc", ...
}

// Anchors returns m's anchors, in driver order (nil for a nil m).
func (m *Map) Anchors() []Anchor {
	if m == nil {
		return nil
	}
	as := make([]Anchor, len(m.anchors))
	for i, a := range m.anchors {
		as[i] = Anchor{Driver: a.driver, User: a.user, What: a.what}
	}
	return as
}

// RestoreMap makes the Map of anchors as between the user's source user
// and the driver's source driver. It refuses anchors that do not fit the
// sources: an offset outside its source or not at a character's start,
// or driver offsets out of order.
func RestoreMap(user, driver string, as []Anchor) (*Map, error) {
	m := &Map{user: user, driver: driver, anchors: make([]anchor, len(as))}
	prev := -1
	for i, a := range as {
		switch {
		case a.Driver < 0 || a.Driver > len(driver) || a.Driver < prev:
			return nil, fmt.Errorf("anchor %d: driver offset %d out of order or outside the driver's source (%d bytes)", i, a.Driver, len(driver))
		case a.User < -1 || a.User > len(user):
			return nil, fmt.Errorf("anchor %d: user offset %d outside the user's source (%d bytes)", i, a.User, len(user))
		case a.Driver < len(driver) && !utf8.RuneStart(driver[a.Driver]),
			a.User >= 0 && a.User < len(user) && !utf8.RuneStart(user[a.User]):
			return nil, fmt.Errorf("anchor %d: an offset inside a character", i)
		}
		prev = a.Driver
		m.anchors[i] = anchor{driver: a.Driver, user: a.User, what: a.What}
	}
	return m, nil
}
