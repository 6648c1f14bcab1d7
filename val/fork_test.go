package val

import (
	"reflect"
	"testing"
)

// TestForkStartsFromZeroScratch: a fork shares its parent's shared part
// and none of the scratch, whatever the parent has written there.
func TestForkStartsFromZeroScratch(t *testing.T) {
	s := &state{shared: &shared{}}
	s.errs = ErrorList{{Msg: "parent"}}
	s.names = map[uint32]string{1: "a"}
	s.curLabel = 7
	s.limits = []limitUse{{}}
	s.layout = &blockLayout{}
	f := s.fork()
	if f.shared != s.shared {
		t.Fatal("the fork does not share its parent's shared part")
	}
	if !reflect.ValueOf(f.scratch).IsZero() {
		t.Fatalf("the fork's scratch is not zero: %+v", f.scratch)
	}
}
