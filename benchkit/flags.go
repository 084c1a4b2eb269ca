package benchkit

import "flag"

// RegisterFlags defines [Main]'s -benchkit.* flags on flag.CommandLine,
// for a TestMain that calls flag.Parse itself before Main:
//
//	func TestMain(m *testing.M) {
//		benchkit.RegisterFlags()
//		flag.Parse()
//		setUp() // reads the parsed flags
//		benchkit.Main(m)
//	}
//
// Without it, flag.Parse rejects a -benchkit.* flag with "flag provided
// but not defined: -benchkit.json" and exits 2 before Main runs (Main
// registers its flags only when it is called, never at import time). The
// environment variables (BENCHKIT_JSON, ...) work either way. Calling
// RegisterFlags more than once, or before Main, is harmless.
func RegisterFlags() { mainRegister(flag.CommandLine, mainDefaults()) }
