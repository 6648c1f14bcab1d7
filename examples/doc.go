// Package examples holds no code: it is the home of the example modules
// the README uses (saxpy.spv, switch64.spv, built from src/ by
// src/build.sh), and its test checks that each shipped module is what its
// source builds to.
package examples
