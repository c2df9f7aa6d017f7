// Package journey holds the end-to-end journeys of relurl on what real
// tools produce (its tests only): a small site served on loopback is
// captured by wget and by a browser, the captures go through the relurl
// binary, and the resulting trees are opened from file: in Chromium with
// the network cut. Each journey skips, saying what is missing, when a
// tool is not installed (.ci/run installs them).
package journey
