// Command spvx is the command-line front end of the spvx SPIR-V toolkit:
// assembler, disassembler, module inspector, the CPU executor and Amber
// runner (run), MX numerics and the bitcast shuffle explorer, each a
// subcommand. Every subcommand parses its command line the same way
// (cli.go): flags before, between or after the files, "--" ends them, "-"
// is standard input, -h/--help prints the help on standard output.
//
// Exit status: 0 success, 1 input rejected, 2 usage error.
package main
