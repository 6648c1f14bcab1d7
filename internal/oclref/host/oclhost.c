/*
 * oclhost: the OpenCL host program of spvx's oracle harness (package
 * oclref). It is built with gcc against the system's ICD loader when a test
 * first needs it, and run as a process: spvx itself has no cgo.
 *
 * It reads one request from standard input and writes one reply to standard
 * output, both little-endian:
 *
 *   request: "OCLH" str(platform substring) str(source) str(build options)
 *            u32 nruns, then per run:
 *              str(kernel) u32 dims u64 global[3] u64 local[3] (0: let the
 *              runtime choose) u32 nargs, then per argument:
 *                u32 kind (0 buffer, 1 local, 2 by value) u64 size
 *                bytes[size] (buffer and by value; none for local)
 *   reply:   u32 status (0 built) str(message: build log or error), then,
 *            if built, per run: u32 status (0 ran) str(message) and, per
 *            buffer argument, u64 size bytes[size] (the buffer after the run)
 *
 * str is u32 length then bytes. A run that fails reports its OpenCL error
 * code by name and the others still run.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg) {
	fprintf(stderr, "oclhost: %s\n", msg);
	exit(2);
}

static void readn(void *p, size_t n) {
	if (n && fread(p, 1, n, stdin) != n) die("short request");
}

static uint32_t ru32(void) {
	uint8_t b[4];
	readn(b, 4);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t ru64(void) {
	uint64_t lo = ru32();
	return lo | (uint64_t)ru32() << 32;
}

static void *rbytes(uint64_t n) {
	if (n > ((uint64_t)1 << 32)) die("request field too large");
	char *p = malloc(n + 1);
	if (!p) die("out of memory");
	readn(p, n);
	p[n] = 0;
	return p;
}

static char *rstr(void) { return rbytes(ru32()); }

static void wn(const void *p, size_t n) {
	if (n && fwrite(p, 1, n, stdout) != n) die("short write");
}

static void wu32(uint32_t v) {
	uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};
	wn(b, 4);
}

static void wu64(uint64_t v) {
	wu32((uint32_t)v);
	wu32((uint32_t)(v >> 32));
}

static void wstr(const char *s) {
	wu32((uint32_t)strlen(s));
	wn(s, strlen(s));
}

static const char *errname(cl_int e) {
	switch (e) {
#define E(x) case x: return #x;
	E(CL_DEVICE_NOT_FOUND) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
	E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_BUILD_PROGRAM_FAILURE)
	E(CL_INVALID_VALUE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
	E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT)
	E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE)
	E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
	E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
	E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
	E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_BUFFER_SIZE)
	E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
	}
	return "CL error";
}

static char msgbuf[256];

static const char *clerr(const char *what, cl_int e) {
	snprintf(msgbuf, sizeof msgbuf, "%s: %s (%d)", what, errname(e), (int)e);
	return msgbuf;
}

static cl_device_id pick(const char *want) {
	cl_platform_id ps[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) die("no OpenCL platform");
	for (cl_uint i = 0; i < np && i < 16; i++) {
		char name[256] = {0};
		clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
		if (*want && !strstr(name, want)) continue;
		cl_device_id d;
		if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS) return d;
	}
	fprintf(stderr, "oclhost: no platform named like \"%s\"\n", want);
	exit(3);
}

struct arg {
	uint32_t kind;
	uint64_t size;
	void *data;
	cl_mem mem;
};

int main(void) {
	if (ru32() != 0x484c434fu) die("bad magic");
	char *platform = rstr(), *source = rstr(), *options = rstr();
	cl_device_id dev = pick(platform);
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err) die(clerr("clCreateContext", err));
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	if (err) die(clerr("clCreateCommandQueue", err));
	const char *srcs[1] = {source};
	cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
	if (err) die(clerr("clCreateProgramWithSource", err));
	err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
	if (err) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		char *log = calloc(n + 1, 1);
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
		wu32(1);
		wstr(*log ? log : clerr("clBuildProgram", err));
		return 0;
	}
	wu32(0);
	wstr("");
	uint32_t nruns = ru32();
	for (uint32_t r = 0; r < nruns; r++) {
		char *kname = rstr();
		uint32_t dims = ru32();
		size_t global[3], local[3];
		int uselocal = 1;
		for (int i = 0; i < 3; i++) global[i] = (size_t)ru64();
		for (int i = 0; i < 3; i++) {
			local[i] = (size_t)ru64();
			if (i < (int)dims && local[i] == 0) uselocal = 0;
		}
		uint32_t nargs = ru32();
		struct arg *args = calloc(nargs ? nargs : 1, sizeof *args);
		for (uint32_t i = 0; i < nargs; i++) {
			args[i].kind = ru32();
			args[i].size = ru64();
			if (args[i].kind != 1) args[i].data = rbytes(args[i].size);
		}
		const char *fail = NULL;
		cl_kernel k = clCreateKernel(prog, kname, &err);
		if (err) fail = clerr("clCreateKernel", err);
		for (uint32_t i = 0; i < nargs && !fail; i++) {
			struct arg *a = &args[i];
			switch (a->kind) {
			case 0:
				a->mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				                        a->size ? a->size : 1, a->size ? a->data : msgbuf, &err);
				if (err) fail = clerr("clCreateBuffer", err);
				else if ((err = clSetKernelArg(k, i, sizeof a->mem, &a->mem))) fail = clerr("clSetKernelArg", err);
				break;
			case 1:
				if ((err = clSetKernelArg(k, i, a->size, NULL))) fail = clerr("clSetKernelArg", err);
				break;
			default:
				if ((err = clSetKernelArg(k, i, a->size, a->data))) fail = clerr("clSetKernelArg", err);
			}
		}
		if (!fail) {
			err = clEnqueueNDRangeKernel(q, k, dims, NULL, global, uselocal ? local : NULL, 0, NULL, NULL);
			if (err) fail = clerr("clEnqueueNDRangeKernel", err);
		}
		for (uint32_t i = 0; i < nargs && !fail; i++) {
			struct arg *a = &args[i];
			if (a->kind == 0 && a->size) {
				err = clEnqueueReadBuffer(q, a->mem, CL_TRUE, 0, a->size, a->data, 0, NULL, NULL);
				if (err) fail = clerr("clEnqueueReadBuffer", err);
			}
		}
		if (!fail && (err = clFinish(q))) fail = clerr("clFinish", err);
		wu32(fail ? 1 : 0);
		wstr(fail ? fail : "");
		if (!fail)
			for (uint32_t i = 0; i < nargs; i++)
				if (args[i].kind == 0) {
					wu64(args[i].size);
					wn(args[i].data, args[i].size);
				}
		for (uint32_t i = 0; i < nargs; i++) {
			if (args[i].mem) clReleaseMemObject(args[i].mem);
			free(args[i].data);
		}
		if (k) clReleaseKernel(k);
		free(args);
		free(kname);
		fflush(stdout);
	}
	return 0;
}
