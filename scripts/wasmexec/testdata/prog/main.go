// Command prog is the program the tests of wasmexec run in the page, built
// with GOOS=js GOARCH=wasm: its first argument picks what it does.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: prog mode [args]")
		os.Exit(2)
	}
	switch mode, args := os.Args[1], os.Args[2:]; mode {
	case "args":
		fmt.Printf("%q\n", os.Args[1:])
	case "env":
		for _, k := range args {
			fmt.Printf("%s=%s\n", k, os.Getenv(k))
		}
	case "exit":
		code, _ := strconv.Atoi(args[0])
		os.Stdout.WriteString("to stdout\n")
		os.Stderr.WriteString("to stderr\n")
		os.Stdout.WriteString("no newline")
		os.Exit(code)
	case "bytes":
		// Every byte value, to check the output is forwarded exactly.
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		os.Stdout.Write(b)
	case "read":
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		os.Stdout.Write(b)
	case "cwd":
		wd, err := os.Getwd()
		fmt.Println(wd, err)
	case "tmp":
		if err := tmp(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("tmp ok")
	case "write-outside":
		err := os.WriteFile("testdata/new.txt", []byte("x"), 0o644)
		fmt.Println(err)
	case "panic":
		panic("boom")
	case "spin":
		fmt.Println("spinning")
		for {
		}
	case "block":
		fmt.Println("blocking")
		select {}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		os.Exit(2)
	}
}

// tmp does what t.TempDir and a test writing there do.
func tmp() error {
	dir, err := os.MkdirTemp("", "wasmexec-*")
	if err != nil {
		return err
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return err
	}
	f := filepath.Join(sub, "f.txt")
	if err := os.WriteFile(f, []byte("hello"), 0o644); err != nil {
		return err
	}
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fh.WriteString(", world")
	fh.Close()
	if err := os.Rename(f, filepath.Join(dir, "g.txt")); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dir, "g.txt"))
	if err != nil || string(b) != "hello, world" {
		return fmt.Errorf("read back %q, %v", b, err)
	}
	if _, err := os.Stat(f); !os.IsNotExist(err) {
		return fmt.Errorf("after rename, stat old name: %v", err)
	}
	if _, err := os.OpenFile(filepath.Join(dir, "g.txt"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !os.IsExist(err) {
		return fmt.Errorf("O_EXCL on an existing file: %v", err)
	}
	fh, err = os.OpenFile(filepath.Join(dir, "g.txt"), os.O_RDWR, 0)
	if err != nil {
		return err
	}
	fh.Seek(7, 0)
	fh.WriteString("WORLD")
	fh.Truncate(10)
	fh.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, "g.txt")); !bytes.Equal(b, []byte("hello, WOR")) {
		return fmt.Errorf("after seek, write, truncate: %q", b)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "a,g.txt" {
		return fmt.Errorf("ReadDir = %v", names)
	}
	if err := os.Remove(dir); err == nil {
		return fmt.Errorf("Remove of a non-empty dir succeeded")
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		return fmt.Errorf("after RemoveAll: %v", err)
	}
	return nil
}
