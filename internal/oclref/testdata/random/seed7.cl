// A random kernel on which spvx and PoCL differed, reduced.
// run: seed=7 global=24,0,0 local=24,0,0 outputs=1 lmarg=1
__kernel void k(__global const uint *in, __global ulong *out, __local ulong *lm) {
  const int gid = (int)get_global_id(0);
  const int lid = (int)get_local_id(0);
  float v16 = (float)0;
  for (int i18 = 0; i18 < (int)((uint)gid % 6u); i18++) {
  }
  lm[lid] = (ulong)as_uint(cnan((float)0));
  barrier(CLK_LOCAL_MEM_FENCE);
  v16 = as_float((uint)lm[(lid + 15) % 24]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid * 1 + 0] = (ulong)as_uint(cnan(v16));
}
