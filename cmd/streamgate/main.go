package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
)

// command is one subcommand. Each lives in its own file and adds itself to
// commands from an init function, so a new subcommand is one more file.
type command struct {
	name    string // one word, or two for a command's subcommand ("tune export")
	summary string // one line for the usage
	// args names the command's positional arguments in its usage
	// ("FILE..."); empty for a command that takes none, whose arguments
	// after the flags are a usage error. A command with args reads them
	// from its flag set.
	args string
	// flags returns the command's flag set, its flags bound to fresh
	// variables, and the function that runs the command once they are
	// parsed.
	flags func() (*flag.FlagSet, func(ctx context.Context, stdout, stderr io.Writer) int)
}

// commands maps a subcommand's name to it; written only by init functions.
var commands = map[string]*command{}

// register adds c to commands. It panics on a duplicate name.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("streamgate: command " + c.name + " registered twice")
	}
	commands[c.name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args (without the program name) and returns the
// exit status: 0 on success, 1 when the command failed, 2 on a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			usage(stdout)
			return 0
		}
		c, more, ok := lookup(rest)
		if !ok || len(more) > 0 {
			fmt.Fprintf(stderr, "streamgate help: unknown command %q\n\n", strings.Join(rest, " "))
			usage(stderr)
			return 2
		}
		fs, _ := c.flags()
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	}
	c, rest, ok := lookup(args)
	if !ok {
		if subs := subcommands(name); len(subs) > 0 {
			fmt.Fprintf(stderr, "streamgate %s: missing subcommand: %s\n\n", name, strings.Join(subs, " or "))
		} else {
			fmt.Fprintf(stderr, "streamgate: unknown command %q\n\n", name)
		}
		usage(stderr)
		return 2
	}
	name = c.name
	fs, runCmd := c.flags()
	fs.SetOutput(stderr)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 && c.args == "" {
		fmt.Fprintf(stderr, "streamgate %s: unexpected arguments: %s\n", name, strings.Join(fs.Args(), " "))
		fs.Usage()
		return 2
	}
	return runCmd(ctx, stdout, stderr)
}

// lookup returns the command args start with, a two-word one first, and
// the args after its name.
func lookup(args []string) (c *command, rest []string, ok bool) {
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c, args[2:], true
		}
	}
	c, ok = commands[args[0]]
	return c, args[1:], ok
}

// subcommands returns the second words of name's two-word commands.
func subcommands(name string) []string {
	var subs []string
	for n := range commands {
		if first, second, ok := strings.Cut(n, " "); ok && first == name {
			subs = append(subs, second)
		}
	}
	slices.Sort(subs)
	return subs
}

// newFlagSet returns a flag set for the named command whose usage prints
// summary and the flags.
func newFlagSet(name, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("streamgate "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: streamgate %s [flags]\n\n%s\n\nflags:\n", name, summary)
		fs.PrintDefaults()
	}
	return fs
}

// usage prints the commands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: streamgate <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-12s %s\n", "help", "this usage, or a command's flags: streamgate help <command>")
	if _, ok := commands["warmup"]; !ok { // bench runs without cgo, less its launch cases
		fmt.Fprintln(w)
		fmt.Fprintln(w, "This streamgate was built without cgo: its WebGPU commands need cgo and a C compiler.")
	}
}
