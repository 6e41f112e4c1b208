// The page side of wasmexec: a file system, process and path for Go's
// syscall/js file calls (defined before wasm_exec.js, which keeps them), and
// the start of the test binary. globalThis.__wasmexecConfig (config.js) holds
// argv, env, cwd and the roots; globalThis.__wasmexecOut is the runner's CDP
// binding, which takes "o"/"e" + bytes (one char each) for stdout/stderr and
// "x" + code for the exit.
"use strict";
(() => {
	const cfg = globalThis.__wasmexecConfig;
	const send = (s) => globalThis.__wasmexecOut(s);
	const latin1 = (u8) => {
		let s = "";
		for (let i = 0; i < u8.length; i += 0x8000) {
			s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
		}
		return s;
	};
	const encoder = new TextEncoder();
	const report = (msg) => send("e" + latin1(encoder.encode("wasmexec: " + msg + "\n")));
	const fail = (code, what) => {
		const e = new Error(code + ": " + what);
		e.code = code;
		return e;
	};

	// Paths.
	let cwd = cfg.cwd;
	const norm = (p) => {
		if (!p.startsWith("/")) p = cwd + "/" + p;
		const parts = [];
		for (const s of p.split("/")) {
			if (s === "" || s === ".") continue;
			if (s === "..") parts.pop();
			else parts.push(s);
		}
		return "/" + parts.join("/");
	};
	const under = (p, root) => root === "/" || p === root || p.startsWith(root + "/");
	const parentOf = (p) => {
		const i = p.lastIndexOf("/");
		return i <= 0 ? "/" : p.slice(0, i);
	};
	const baseOf = (p) => p.slice(p.lastIndexOf("/") + 1);
	// The module root is served even where it lies under a writable root
	// (a checkout in /tmp): its files are read from the host, not shadowed by
	// the empty in-memory /tmp.
	const served = (p) => cfg.readonly.some((r) => under(p, r));
	const writable = (p) => !served(p) && cfg.writable.some((r) => under(p, r));

	// The in-memory tree of the writable roots: path -> node.
	const mem = new Map();
	let nextIno = 1;
	const newNode = (dir, mode) => ({
		dir, mode: mode & 0o7777, data: new Uint8Array(0), size: 0, mtimeMs: Date.now(), ino: nextIno++,
	});
	for (const r of cfg.writable) {
		for (let p = r; writable(p) && !mem.has(p); p = parentOf(p)) mem.set(p, newNode(true, 0o777));
	}
	// The directories above the roots, which exist so that a walk up from a
	// root or a MkdirAll finds them.
	const above = new Map();
	for (const r of [...cfg.writable, ...cfg.readonly]) {
		for (let p = r; p !== "/";) {
			const parent = parentOf(p);
			if (!above.has(parent)) above.set(parent, new Set());
			above.get(parent).add(baseOf(p));
			p = parent;
		}
	}

	// The read-only tree: the runner's server, read with synchronous XHR (a
	// Go file call may come from inside a js.FuncOf callback, where a promise
	// could not be awaited).
	const xhr = (op, p) => {
		const x = new XMLHttpRequest();
		x.open("GET", "/fs/" + op + "?p=" + encodeURIComponent(p), false);
		x.overrideMimeType("text/plain; charset=x-user-defined");
		x.send();
		if (x.status !== 200) throw fail(x.responseText || "EIO", p);
		return x.responseText;
	};
	const statCache = new Map();
	const servedStat = (p) => {
		let st = statCache.get(p);
		if (st === undefined) {
			st = JSON.parse(xhr("stat", p));
			st.ino = nextIno++;
			statCache.set(p, st);
		}
		return st;
	};
	const servedRead = (p) => {
		const t = xhr("read", p);
		const u = new Uint8Array(t.length);
		for (let i = 0; i < t.length; i++) u[i] = t.charCodeAt(i) & 0xff;
		return u;
	};

	// lookup returns {dir, mode, size, mtimeMs, ino, node?} for p, or throws
	// ENOENT.
	const lookup = (p) => {
		if (writable(p)) {
			const n = mem.get(p);
			if (n === undefined) {
				if (above.has(p)) return { dir: true, mode: 0o555, size: 0, mtimeMs: 0, ino: 0 };
				throw fail("ENOENT", p);
			}
			return { dir: n.dir, mode: n.mode, size: n.size, mtimeMs: n.mtimeMs, ino: n.ino, node: n };
		}
		if (served(p)) return servedStat(p);
		if (above.has(p)) return { dir: true, mode: 0o555, size: 0, mtimeMs: 0, ino: 0 };
		throw fail("ENOENT", p);
	};
	const memDir = (p) => {
		const n = mem.get(p);
		if (n === undefined) throw fail(writable(p) || above.has(p) ? "ENOENT" : "EROFS", p);
		if (!n.dir) throw fail("ENOTDIR", p);
		return n;
	};
	const memChildren = (p) => {
		const prefix = p === "/" ? "/" : p + "/";
		const names = [];
		for (const k of mem.keys()) {
			if (k.startsWith(prefix) && k.length > prefix.length && !k.slice(prefix.length).includes("/")) {
				names.push(k.slice(prefix.length));
			}
		}
		return names;
	};
	const toStat = (st) => {
		const m = st.mtimeMs;
		return {
			dev: 1, ino: st.ino, mode: (st.dir ? 0o40000 : 0o100000) | st.mode, nlink: 1, uid: 0, gid: 0, rdev: 0,
			size: st.size, blksize: 4096, blocks: Math.ceil(st.size / 512), atimeMs: m, mtimeMs: m, ctimeMs: m,
			isDirectory() { return st.dir; },
		};
	};
	const grow = (n, size) => {
		if (size <= n.data.length) return;
		let c = Math.max(size, n.data.length * 2, 64);
		let d;
		try {
			d = new Uint8Array(c);
		} catch (e) {
			throw fail("ENOSPC", "in-memory file of " + size + " bytes");
		}
		d.set(n.data.subarray(0, n.size));
		n.data = d;
	};
	const resize = (n, size) => {
		if (size < n.size) n.data.fill(0, size, n.size);
		else grow(n, size);
		n.size = size;
		n.mtimeMs = Date.now();
	};

	const O = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
	const fds = new Map();
	let nextFd = 3;
	const fdOf = (fd) => {
		const f = fds.get(fd);
		if (f === undefined) throw fail("EBADF", "fd " + fd);
		return f;
	};

	const ops = {
		open(path, flags, mode) {
			const p = norm(path);
			const acc = flags & 3;
			const canWrite = acc !== 0;
			let st;
			if (writable(p) && !above.has(p)) {
				let n = mem.get(p);
				if (n !== undefined && (flags & O.O_CREAT) && (flags & O.O_EXCL)) throw fail("EEXIST", p);
				if (n === undefined) {
					if (!(flags & O.O_CREAT)) throw fail("ENOENT", p);
					memDir(parentOf(p));
					n = newNode(false, mode);
					mem.set(p, n);
				}
				if (n.dir && canWrite) throw fail("EISDIR", p);
				if ((flags & O.O_TRUNC) && !n.dir && canWrite) resize(n, 0);
				st = { dir: n.dir, node: n };
			} else {
				let found;
				try {
					found = lookup(p);
				} catch (e) {
					if (e.code === "ENOENT" && (flags & O.O_CREAT)) throw fail("EROFS", p);
					throw e;
				}
				if (canWrite || (flags & O.O_TRUNC)) throw fail(found.dir ? "EISDIR" : "EROFS", p);
				if ((flags & O.O_CREAT) && (flags & O.O_EXCL)) throw fail("EEXIST", p);
				st = found;
			}
			if ((flags & O.O_DIRECTORY) && !st.dir) throw fail("ENOTDIR", p);
			const fd = nextFd++;
			fds.set(fd, { path: p, st, node: st.node, data: null, pos: 0, write: canWrite, append: !!(flags & O.O_APPEND) });
			return fd;
		},
		close(fd) {
			fdOf(fd);
			fds.delete(fd);
		},
		read(fd, buf, offset, length, position) {
			if (fd === 0) return 0;
			const f = fdOf(fd);
			if (f.st.dir) throw fail("EISDIR", f.path);
			let data, size;
			if (f.node) {
				data = f.node.data;
				size = f.node.size;
			} else {
				if (f.data === null) f.data = servedRead(f.path);
				data = f.data;
				size = data.length;
			}
			const pos = position === null || position === undefined ? f.pos : position;
			const n = Math.max(0, Math.min(length, size - pos));
			if (n > 0) buf.set(data.subarray(pos, pos + n), offset);
			if (position === null || position === undefined) f.pos = pos + n;
			return n;
		},
		write(fd, buf, offset, length, position) {
			const b = buf.subarray(offset, offset + length);
			if (fd === 1 || fd === 2) {
				send((fd === 1 ? "o" : "e") + latin1(b));
				return length;
			}
			const f = fdOf(fd);
			if (!f.write) throw fail("EBADF", f.path + " is not open for writing");
			const n = f.node;
			const pos = position === null || position === undefined ? (f.append ? n.size : f.pos) : position;
			grow(n, pos + length);
			n.data.set(b, pos);
			if (pos + length > n.size) n.size = pos + length;
			n.mtimeMs = Date.now();
			if (position === null || position === undefined) f.pos = pos + length;
			return length;
		},
		fstat(fd) {
			const f = fdOf(fd);
			const n = f.node;
			return toStat(n ? { dir: n.dir, mode: n.mode, size: n.size, mtimeMs: n.mtimeMs, ino: n.ino } : f.st);
		},
		stat(path) { return toStat(lookup(norm(path))); },
		lstat(path) { return toStat(lookup(norm(path))); },
		readdir(path) {
			const p = norm(path);
			const st = lookup(p);
			if (!st.dir) throw fail("ENOTDIR", p);
			const names = new Set(above.has(p) ? above.get(p) : []);
			if (st.node) for (const n of memChildren(p)) names.add(n);
			else if (served(p)) for (const n of JSON.parse(xhr("readdir", p))) names.add(n);
			return [...names].sort();
		},
		mkdir(path, perm) {
			const p = norm(path);
			if (!writable(p) || above.has(p)) {
				let exists = true;
				try { lookup(p); } catch (e) { exists = false; }
				throw fail(exists ? "EEXIST" : "EROFS", p);
			}
			if (mem.has(p)) throw fail("EEXIST", p);
			memDir(parentOf(p));
			mem.set(p, newNode(true, perm));
		},
		unlink(path) {
			const p = norm(path);
			if (!writable(p)) { lookup(p); throw fail("EROFS", p); }
			const n = mem.get(p);
			if (n === undefined) throw fail("ENOENT", p);
			if (n.dir) throw fail("EISDIR", p);
			mem.delete(p);
		},
		rmdir(path) {
			const p = norm(path);
			if (!writable(p) || cfg.writable.includes(p)) { lookup(p); throw fail(writable(p) ? "EBUSY" : "EROFS", p); }
			const n = mem.get(p);
			if (n === undefined) throw fail("ENOENT", p);
			if (!n.dir) throw fail("ENOTDIR", p);
			if (memChildren(p).length > 0) throw fail("ENOTEMPTY", p);
			mem.delete(p);
		},
		rename(from, to) {
			const a = norm(from), b = norm(to);
			if (!writable(a) || !writable(b)) { lookup(a); throw fail("EROFS", writable(a) ? b : a); }
			const n = mem.get(a);
			if (n === undefined) throw fail("ENOENT", a);
			if (a === b) return;
			if (n.dir && under(b, a)) throw fail("EINVAL", b + " is inside " + a);
			memDir(parentOf(b));
			const old = mem.get(b);
			if (old !== undefined) {
				if (old.dir && !n.dir) throw fail("EISDIR", b);
				if (!old.dir && n.dir) throw fail("ENOTDIR", b);
				if (old.dir && memChildren(b).length > 0) throw fail("ENOTEMPTY", b);
			}
			const moves = [];
			for (const [k, v] of mem) if (k === a || k.startsWith(a + "/")) moves.push([k, v]);
			for (const [k] of moves) mem.delete(k);
			for (const [k, v] of moves) mem.set(b + k.slice(a.length), v);
		},
		truncate(path, length) {
			const p = norm(path);
			const st = lookup(p);
			if (!st.node) throw fail("EROFS", p);
			if (st.dir) throw fail("EISDIR", p);
			resize(st.node, length);
		},
		ftruncate(fd, length) {
			const f = fdOf(fd);
			if (!f.write) throw fail("EINVAL", f.path + " is not open for writing");
			resize(f.node, length);
		},
		fsync(fd) { fdOf(fd); },
		chmod(path, mode) {
			const st = lookup(norm(path));
			if (!st.node) throw fail("EROFS", path);
			st.node.mode = mode & 0o7777;
		},
		fchmod(fd, mode) {
			const f = fdOf(fd);
			if (!f.node) throw fail("EROFS", f.path);
			f.node.mode = mode & 0o7777;
		},
		chown(path) { lookup(norm(path)); },
		fchown(fd) { fdOf(fd); },
		lchown(path) { lookup(norm(path)); },
		utimes(path, atime, mtime) {
			const st = lookup(norm(path));
			if (!st.node) throw fail("EROFS", path);
			st.node.mtimeMs = mtime * 1000;
		},
		readlink(path) { lookup(norm(path)); throw fail("EINVAL", path + " is not a symbolic link"); },
		symlink(path, link) { throw fail("ENOSYS", "symlink " + link); },
		link(path, link) { throw fail("ENOSYS", "link " + link); },
	};

	// Node's callback API over ops: the callback runs after the op, outside
	// its try, so that a panic in Go's callback is not taken for an fs error.
	const fs = { constants: O };
	for (const [name, op] of Object.entries(ops)) {
		fs[name] = (...args) => {
			const cb = args.pop();
			let res;
			try {
				res = op(...args);
			} catch (e) {
				if (!e.code) {
					report("fs." + name + ": " + (e.stack || e));
					e.code = "EIO";
				}
				cb(e);
				return;
			}
			cb(null, res);
		};
	}
	fs.writeSync = (fd, buf) => ops.write(fd, buf, 0, buf.length, null);
	globalThis.fs = fs;

	globalThis.process = {
		getuid() { return 0; },
		getgid() { return 0; },
		geteuid() { return 0; },
		getegid() { return 0; },
		getgroups() { return [0]; },
		pid: 1,
		ppid: 0,
		umask() { return 0o22; },
		cwd() { return cwd; },
		chdir(path) {
			const p = norm(path);
			if (!lookup(p).dir) throw fail("ENOTDIR", p);
			cwd = p;
		},
	};
	globalThis.path = { resolve(...segs) { return norm(segs.join("/")); } };

	// The binary, fetched and compiled while the runner checks the adapter.
	const compiled = fetch("/test.wasm").then((r) => {
		if (!r.ok) throw new Error("fetching the test binary: HTTP " + r.status);
		return r.arrayBuffer();
	}).then((b) => WebAssembly.compile(b));
	globalThis.__wasmexecStart = () => {
		(async () => {
			try {
				const mod = await compiled;
				const go = new Go();
				go.argv = cfg.argv;
				go.env = cfg.env;
				go.exit = (code) => send("x" + code);
				const inst = await WebAssembly.instantiate(mod, go.importObject);
				await go.run(inst);
			} catch (e) {
				report(String(e && e.stack || e));
				send("x2");
			}
		})();
		return true;
	};
})();
