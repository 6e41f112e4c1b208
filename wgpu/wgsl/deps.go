package wgsl

import "strings"

// checkDependencies builds the graph of module-scope declarations that use
// one another, rejects cycles, and bounds its longest chain by
// MaxDeclarationDepth: naga resolves declarations in dependency order by a
// recursive walk. A function's uses are those res found: names it declares
// itself do not count. Another declaration uses every module-scope name in
// its type, initializer, attribute arguments and members.
func (a *analysis) checkDependencies(res *resolution) error {
	index := make(map[Decl]int, len(a.order))
	for i, d := range a.order {
		index[d] = i
	}
	edges := make([][]int, len(a.order))
	seen := map[int]int{} // the declaration (index + 1) that last added each edge target
	for i, d := range a.order {
		if fd, ok := d.(*FuncDecl); ok {
			for _, u := range res.uses[fd] {
				edges[i] = append(edges[i], index[u])
			}
			continue
		}
		add := func(id *Ident) {
			if u, ok := a.decls[id.Name]; ok {
				if k := index[u]; seen[k] != i+1 {
					seen[k] = i + 1
					edges[i] = append(edges[i], k)
				}
			}
		}
		switch d := d.(type) {
		case *VarDecl:
			eachIdent(d.Type, add)
			eachIdent(d.Init, add)
			attrIdents(d.Attrs, add)
		case *AliasDecl:
			eachIdent(d.Type, add)
		case *StructDecl:
			for _, m := range d.Members {
				eachIdent(m.Type, add)
				attrIdents(m.Attrs, add)
			}
		}
	}
	// Iterative depth-first search: state 0 new, 1 on the stack, 2 done.
	state := make([]uint8, len(a.order))
	depth := make([]int, len(a.order))
	for root := range a.order {
		if state[root] != 0 {
			continue
		}
		stack := []depFrame{{root, 0}}
		state[root] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(edges[f.n]) {
				c := edges[f.n][f.next]
				f.next++
				switch state[c] {
				case 0:
					state[c] = 1
					stack = append(stack, depFrame{c, 0})
				case 1:
					return a.cycleError(stack, c)
				}
				continue
			}
			d := 1
			for _, c := range edges[f.n] {
				d = max(d, depth[c]+1)
			}
			depth[f.n] = d
			state[f.n] = 2
			if d > a.lim.MaxDeclarationDepth {
				n := a.order[f.n]
				return a.limitf(declNamePos(n), "%s %s starts a chain of %d declarations that use one another, more than the limit of %d", declKind(n), declName(n), d, a.lim.MaxDeclarationDepth)
			}
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}

// eachIdent calls f on every identifier of x, in source order: names,
// type names and template arguments, not member names.
func eachIdent(x Expr, f func(*Ident)) {
	walk(visitor{enter: identVisitor(f).enter}, x)
}

// attrIdents calls f on the identifiers of the attributes' arguments, but
// for those of @builtin, @interpolate and @diagnostic, which name no
// declarations.
func attrIdents(as []*Attribute, f func(*Ident)) {
	walkList(visitor{enter: identVisitor(f).enter}, as)
}

// identVisitor is the [visitor] of eachIdent and attrIdents: its enter
// calls it on each identifier, and skips the arguments that name no
// declarations.
type identVisitor func(*Ident)

func (f identVisitor) enter(n Node) bool {
	switch n := n.(type) {
	case *Attribute:
		return argsName(n)
	case *Ident:
		f(n)
	}
	return true
}

// depFrame is one step of the dependency walk.
type depFrame struct{ n, next int }

func (a *analysis) cycleError(stack []depFrame, c int) error {
	start := 0
	for k, f := range stack {
		if f.n == c {
			start = k
			break
		}
	}
	var names []string
	for _, f := range stack[start:] {
		names = append(names, declName(a.order[f.n]))
	}
	d := a.order[c]
	names = append(names, declName(d))
	if len(names) > 8 {
		names = append(names[:4], append([]string{"..."}, names[len(names)-3:]...)...)
	}
	return a.errf(declNamePos(d), "%s %s depends on itself: %s", declKind(d), declName(d), strings.Join(names, " -> "))
}
