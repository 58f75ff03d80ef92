// Private helper of the core: the double (or triple) buffering every collective
// shares. Call k writes buffer phase() = k % slots and, once it completes, that
// buffer becomes front(), the result readers see. So writing call k+1 never
// touches the result a node neighbour may still be reading from call k (the
// node sync inside call k+1 is the fence before call k+2 reuses it). Two slots;
// three for a Bcast with overlap (one more in flight).
#pragma once

namespace hympi::detail {

class BufferRing {
 public:
  explicit BufferRing(int slots) : slots_(slots), front_(slots - 1) {}
  int phase() const { return phase_; }  // written by the next (or the flying) call
  int front() const { return front_; }  // the latest completed result
  int slots() const { return slots_; }
  // The call writing phase() completed: its buffer is the result now.
  void land() {
    front_ = phase_;
    phase_ = phase_ + 1 == slots_ ? 0 : phase_ + 1;  // no division on the hot path
  }

 private:
  int slots_, phase_ = 0, front_;
};

}  // namespace hympi::detail
