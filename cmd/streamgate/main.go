package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
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
	// A library's records to slog.Default (the caches are given the
	// command's own logger) in the command's one format too.
	slog.SetDefault(newCmdLog("", os.Stderr).logger())
	ctx, stop := interruptContext()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args (without the program name) and returns the
// exit status: 0 on success, 1 when the command failed, 2 on a usage error,
// 130 when it was interrupted.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(rest, stdout, stderr)
	}
	c, rest, ok := lookup(args)
	if !ok {
		if subs := subcommands(name); len(subs) > 0 {
			switch {
			case len(rest) == 0:
				return usageFail(stderr, name, "missing subcommand: %s", strings.Join(subs, " or "))
			case isHelpFlag(rest[0]):
				groupUsage(stdout, name, subs)
				return 0
			}
			return usageFail(stderr, name, "unknown subcommand %q: want %s", rest[0], strings.Join(subs, " or "))
		}
		if !cgoEnabled {
			return usageFail(stderr, "", "unknown command %q (this streamgate was built without cgo: its WebGPU commands need cgo and a C compiler)", name)
		}
		return usageFail(stderr, "", "unknown command %q", name)
	}
	name = c.name
	fs, runCmd := c.flags()
	fs.SetOutput(io.Discard) // an error is one line, below; -h prints to stdout
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return usageFail(stderr, name, "%v", err)
	}
	fs.SetOutput(stderr)
	if fs.NArg() > 0 && c.args == "" {
		return usageFail(stderr, name, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	code := runCmd(ctx, stdout, stderr)
	if code == 1 && ctx.Err() != nil { // a command that does not say it was interrupted
		fmt.Fprintf(stderr, "streamgate %s: interrupted\n", name)
		code = exitInterrupted
	}
	return code
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// help runs streamgate help args: the usage, a command's, or a command
// group's ("tune").
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	c, more, ok := lookup(args)
	if ok && len(more) > 0 {
		return usageFail(stderr, "", "help %s: unexpected arguments: %s", c.name, strings.Join(more, " "))
	}
	if !ok {
		if subs := subcommands(args[0]); len(subs) > 0 {
			if len(args) == 1 {
				groupUsage(stdout, args[0], subs)
				return 0
			}
			return usageFail(stderr, "", "help: unknown subcommand %q of %s: want %s", args[1], args[0], strings.Join(subs, " or "))
		}
		return usageFail(stderr, "", "help: unknown command %q", strings.Join(args, " "))
	}
	fs, _ := c.flags()
	fs.SetOutput(stdout)
	fs.Usage()
	return 0
}

// groupUsage prints the subcommands of the command group name.
func groupUsage(w io.Writer, name string, subs []string) {
	fmt.Fprintf(w, "usage: streamgate %s <subcommand> [flags]\n\nsubcommands:\n", name)
	for _, s := range subs {
		fmt.Fprintf(w, "  %-8s %s\n", s, commands[name+" "+s].summary)
	}
	fmt.Fprintf(w, "\nRun 'streamgate help %s <subcommand>' for its flags.\n", name)
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
	fmt.Fprintf(w, "  %-12s %s\n", "help", "this usage, or a command's flags: streamgate help <command> [<subcommand>]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit status: 0 done, 1 the work failed, 2 a usage error, 130 interrupted (Ctrl-C)")
	if _, ok := commands["warmup"]; !ok { // bench runs without cgo, less its launch cases
		fmt.Fprintln(w)
		fmt.Fprintln(w, "This streamgate was built without cgo: its WebGPU commands need cgo and a C compiler.")
	}
}
