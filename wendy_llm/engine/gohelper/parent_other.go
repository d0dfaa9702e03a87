//go:build !linux

package main

// exitWithParent: only Linux has a parent-death signal; elsewhere the end of
// input (the parent's pipe closing when it dies) is what stops the helper.
func exitWithParent() {}

// inputClosed: not checked elsewhere; the end of input is still seen
// between requests.
func inputClosed(fd int) bool { return false }

// inputReady: no waiting for input before a read elsewhere (see awaitRequest).
func inputReady(fd int) bool { return true }
