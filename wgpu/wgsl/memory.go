package wgsl

// checkMemory bounds the memory a module asks for outside its buffers: the
// module-scope var<workgroup> and var<private> declarations (summed per
// address space), and every array type, struct or alias whose value a
// function body, a const or an override makes (function memory). The
// compiler takes memory in proportion: a 4 MB function-scope array took
// wgpu-native and lavapipe 2.5 GB and 9 s to compile, and a 400 MB
// workgroup array got the process killed, so these are refused before the
// compiler sees them. A type this front-end cannot size (a workgroup array
// sized by an override, say) is left to the compiler.
func (a *analysis) checkMemory(res *resolution) error {
	var workgroup, private uint64
	for _, d := range a.order {
		switch d := d.(type) {
		case *VarDecl:
			if d.Keyword != "var" {
				if err := a.checkValues(d, d.Name, nil, a.lim.MaxPrivateBytes, "function"); err != nil {
					return err
				}
				continue
			}
			space, _ := varSpace(d)
			if space != "workgroup" && space != "private" {
				continue
			}
			limit, total := a.lim.MaxPrivateBytes, &private
			if space == "workgroup" {
				limit, total = a.lim.MaxWorkgroupBytes, &workgroup
			}
			if d.Type != nil {
				if t, err := a.resolveType(d.Type, 0); err == nil {
					*total += t.size
					if *total > uint64(limit) {
						return a.limitf(d.NamePos, "var<%s> %s: %d bytes of %s memory in all, more than the limit of %d", space, d.Name, *total, space, limit)
					}
				}
			}
			if d.Init != nil {
				if err := a.checkValues(d.Init, d.Name, nil, limit, space); err != nil {
					return err
				}
			}
		case *FuncDecl:
			if err := a.checkValues(d, d.Name, res, a.lim.MaxPrivateBytes, "function"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkValues refuses, under n (part of the declaration named name), an
// array type or a struct or alias name whose values are larger than limit
// bytes; one inside a ptr<...> template (a pointer to a buffer) does not
// count, nor does an array inside an array counted already. In a function
// (res not nil), a name counts where res resolved it to a module-scope
// declaration.
func (a *analysis) checkValues(n Node, name string, res *resolution, limit int, space string) error {
	var err error
	Inspect(n, func(n Node) bool {
		id, ok := n.(*Ident)
		if err != nil {
			return false
		}
		if !ok {
			return true
		}
		switch {
		case id.Name == "ptr" && id.Template != nil:
			return false // a pointer's store type is not a value here
		case id.Name == "array" && id.Template != nil:
			if rt, e := a.resolveType(id, 0); e == nil && rt.size > uint64(limit) {
				err = a.limitf(id.At, "%s: %s takes %d bytes of %s memory, more than the limit of %d", name, rt.name, rt.size, space, limit)
			}
			return false
		}
		var td Decl
		if res != nil {
			td = res.types[id]
		} else {
			td = a.decls[id.Name]
		}
		switch td.(type) {
		case *StructDecl, *AliasDecl:
			if rt, e := a.resolveNamed(id.Name, id.At, nil, 0); e == nil && rt.size > uint64(limit) {
				err = a.limitf(id.At, "%s: a value of %s takes %d bytes of %s memory, more than the limit of %d", name, rt.name, rt.size, space, limit)
				return false
			}
		}
		return true
	})
	return err
}
