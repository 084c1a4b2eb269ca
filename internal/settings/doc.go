// Package settings owns every -benchkit.* setting: its flag, its
// environment variable, its default, the rule that parses it and its
// bound. benchkit.Main resolves them all before anything runs
// ([Resolve]: defaults, then Main's options, then the environment, then
// the flags) and refuses a bad one with a message that names the fix;
// the packages that also run without Main (control's forks, the extra
// metrics) read their setting through the same rule ([Forks], [Metrics]).
//
// To add a setting: one entry in the table of settings.go, a field on
// [Config] when Main needs its value, and a line in benchkit.Main's doc.
package settings
