// floor: the launch loop of the ExecutedLaunch and Replay benchmarks in C,
// against the static wgpu-native that the pinned go-webgpu module ships, with
// no Go and no cgo on the path: the floor a launch path on this driver can
// reach. bench/floor.go builds it (cc -O2) and runs it as the Floor cases.
//
// Each kernel file is one variant of the benchmarks' kernel (one read_write
// storage buffer at binding 0, entry point "main"); each gets a pipeline, a
// buffer of BUF_SIZE bytes and a bind group, all under one explicit layout,
// as internal/workload/rawwgpu builds them. A timed pass is: create an
// encoder, begin a compute pass, then either (kernels=1) set the first
// pipeline and bind group once and record the dispatches, or (kernels=K)
// set pipeline i%K and its bind group before every dispatch i; end the pass,
// finish, submit. Dispatches are of 0 workgroups, as ExecutedLaunch's are.
// The GPU's wait after the submit and the releases are not timed.
//
// usage:
//   floor [-rounds R] [-n N] K0.wgsl [K1.wgsl ...]
//       warms up, then runs R rounds of N dispatches in one pass for
//       kernels=1 and kernels=K (K = the number of files, when above 1),
//       interleaved, and prints one line per case:
//       floor<TAB>kernels=K<TAB>dispatches=N<TAB>rounds=R<TAB>median=NS<TAB>min=NS<TAB>max=NS<TAB>ns=NS,NS,...
//       (ns per dispatch; ns= lists the rounds in order)
//   floor -serve [-n N] K0.wgsl [K1.wgsl ...]
//       prints "ready" once the device and the pipelines are made, then
//       reads requests "KERNELS COUNT" a line from standard input; runs
//       COUNT dispatches in passes of at most N (N default 1000, as
//       ExecutedLaunch records them between syncs); answers a line
//       ok<TAB>kernels=K<TAB>dispatches=COUNT<TAB>ns=TOTAL (the timed
//       nanoseconds of all the passes), or error<TAB>MESSAGE.
// A failure before the loop prints "error<TAB>MESSAGE" on standard error
// and exits 1.
//
// Compiled with FLOOR_IN_PROCESS defined (bench/floor_inproc.go includes
// it so), it has no main: floor_open and floor_run make the same device and
// the same loop inside the calling process (the Go benchmarks', with its
// heap and threads), and a failure returns its message instead of exiting.
#include "wgpu.h"

#include <setjmp.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KERNELS 8
#define BUF_SIZE 256 // bench/launch.go's bufferSize

static WGPUDevice dev;
static WGPUQueue queue;
static WGPUComputePipeline pipes[MAX_KERNELS];
static WGPUBindGroup groups[MAX_KERNELS];
static int nkernels;
static char driver_error[512]; // the first uncaptured error, "" for none

#ifdef FLOOR_IN_PROCESS
// In the process: die returns to floor_open with the message.
static char die_msg[512];
static jmp_buf die_jmp;

static void die(const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	vsnprintf(die_msg, sizeof die_msg, format, ap);
	va_end(ap);
	longjmp(die_jmp, 1);
}
#else
static void die(const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	fputs("error\t", stderr);
	vfprintf(stderr, format, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}
#endif

static int64_t now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void on_error(WGPUErrorType type, char const *msg, void *user) {
	(void)user;
	if (driver_error[0] == 0)
		snprintf(driver_error, sizeof driver_error, "driver error %d: %s", (int)type, msg ? msg : "");
}

static void on_adapter(WGPURequestAdapterStatus s, WGPUAdapter a, char const *msg, void *user) {
	if (s == WGPURequestAdapterStatus_Success)
		*(WGPUAdapter *)user = a;
	else
		fprintf(stderr, "floor: no adapter: %s\n", msg ? msg : "");
}

static void on_device(WGPURequestDeviceStatus s, WGPUDevice d, char const *msg, void *user) {
	if (s == WGPURequestDeviceStatus_Success)
		*(WGPUDevice *)user = d;
	else
		fprintf(stderr, "floor: no device: %s\n", msg ? msg : "");
}

#ifndef FLOOR_IN_PROCESS
// read_file returns path's contents, NUL-terminated.
static char *read_file(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f)
		die("open %s", path);
	char *s = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap * 2 + 4096;
			s = realloc(s, cap);
			if (!s)
				die("out of memory");
		}
		size_t got = fread(s + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	s[n] = 0;
	return s;
}
#endif

// open_device opens the default adapter's device and builds one pipeline,
// buffer and bind group per kernel: srcs[k] its WGSL, names[k] what an
// error calls it.
static void open_device(char **srcs, char **names, int n) {
	WGPUInstanceDescriptor idesc = {0};
	WGPUInstance inst = wgpuCreateInstance(&idesc);
	WGPURequestAdapterOptions opts = {0};
	WGPUAdapter adapter = NULL;
	wgpuInstanceRequestAdapter(inst, &opts, on_adapter, &adapter);
	if (!adapter)
		die("no adapter");
	WGPUDeviceDescriptor ddesc = {0};
	wgpuAdapterRequestDevice(adapter, &ddesc, on_device, &dev);
	if (!dev)
		die("no device");
	wgpuDeviceSetUncapturedErrorCallback(dev, on_error, NULL);
	queue = wgpuDeviceGetQueue(dev);

	WGPUBindGroupLayoutEntry lentry = {0};
	lentry.binding = 0;
	lentry.visibility = WGPUShaderStage_Compute;
	lentry.buffer.type = WGPUBufferBindingType_Storage;
	WGPUBindGroupLayoutDescriptor ldesc = {0};
	ldesc.entryCount = 1;
	ldesc.entries = &lentry;
	WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(dev, &ldesc);
	WGPUPipelineLayoutDescriptor pldesc = {0};
	pldesc.bindGroupLayoutCount = 1;
	pldesc.bindGroupLayouts = &bgl;
	WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(dev, &pldesc);

	for (int k = 0; k < n; k++) {
		WGPUShaderModuleWGSLDescriptor wgsl = {0};
		wgsl.chain.sType = WGPUSType_ShaderModuleWGSLDescriptor;
		wgsl.code = srcs[k];
		WGPUShaderModuleDescriptor mdesc = {0};
		mdesc.nextInChain = &wgsl.chain;
		WGPUShaderModule mod = wgpuDeviceCreateShaderModule(dev, &mdesc);
		WGPUComputePipelineDescriptor pdesc = {0};
		pdesc.layout = pl;
		pdesc.compute.module = mod;
		pdesc.compute.entryPoint = "main";
		pipes[k] = wgpuDeviceCreateComputePipeline(dev, &pdesc);
		wgpuShaderModuleRelease(mod);

		WGPUBufferDescriptor bdesc = {0};
		bdesc.size = BUF_SIZE;
		bdesc.usage = WGPUBufferUsage_Storage;
		WGPUBuffer buf = wgpuDeviceCreateBuffer(dev, &bdesc);
		WGPUBindGroupEntry entry = {0};
		entry.binding = 0;
		entry.buffer = buf;
		entry.size = BUF_SIZE;
		WGPUBindGroupDescriptor gdesc = {0};
		gdesc.layout = bgl;
		gdesc.entryCount = 1;
		gdesc.entries = &entry;
		groups[k] = wgpuDeviceCreateBindGroup(dev, &gdesc);
		wgpuBufferRelease(buf); // the bind group keeps it alive
		if (driver_error[0])
			die("%s: %s", names[k], driver_error);
	}
	wgpuPipelineLayoutRelease(pl);
	wgpuBindGroupLayoutRelease(bgl);
}

// pass records n dispatches alternating over kernels pipelines in one pass,
// finishes and submits it, and returns the nanoseconds that took; then it
// waits for the GPU and releases, untimed.
static int64_t pass(int kernels, int n) {
	WGPUCommandEncoderDescriptor edesc = {0};
	WGPUComputePassDescriptor pdesc = {0};
	WGPUCommandBufferDescriptor cdesc = {0};
	int64_t t0 = now_ns();
	WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(dev, &edesc);
	WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, &pdesc);
	if (kernels == 1) {
		wgpuComputePassEncoderSetPipeline(cp, pipes[0]);
		wgpuComputePassEncoderSetBindGroup(cp, 0, groups[0], 0, NULL);
		for (int i = 0; i < n; i++)
			wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0);
	} else {
		for (int i = 0, k = 0; i < n; i++) {
			wgpuComputePassEncoderSetPipeline(cp, pipes[k]);
			wgpuComputePassEncoderSetBindGroup(cp, 0, groups[k], 0, NULL);
			wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0);
			if (++k == kernels)
				k = 0;
		}
	}
	wgpuComputePassEncoderEnd(cp);
	WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, &cdesc);
	wgpuQueueSubmit(queue, 1, &cmd);
	int64_t t1 = now_ns();
	wgpuDevicePoll(dev, true, NULL);
	wgpuCommandBufferRelease(cmd);
	wgpuComputePassEncoderRelease(cp);
	wgpuCommandEncoderRelease(enc);
	return t1 - t0;
}

// run runs count dispatches in passes of at most chunk, returning the timed
// nanoseconds of all of them.
static int64_t run(int kernels, int64_t count, int chunk) {
	int64_t ns = 0;
	while (count > 0) {
		int n = count < chunk ? (int)count : chunk;
		ns += pass(kernels, n);
		count -= n;
	}
	return ns;
}

#ifndef FLOOR_IN_PROCESS
static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void rounds(int r, int n) {
	int cases[2] = {1, nkernels}, ncases = nkernels > 1 ? 2 : 1;
	double *ns = calloc((size_t)(2 * r), sizeof *ns), *sorted = calloc((size_t)r, sizeof *sorted);
	if (!ns || !sorted)
		die("out of memory");
	for (int w = 0; w < 3; w++)
		for (int c = 0; c < ncases; c++)
			pass(cases[c], n);
	for (int i = 0; i < r; i++)
		for (int c = 0; c < ncases; c++)
			ns[c * r + i] = (double)pass(cases[c], n) / n;
	if (driver_error[0])
		die("%s", driver_error);
	for (int c = 0; c < ncases; c++) {
		memcpy(sorted, ns + c * r, (size_t)r * sizeof *sorted);
		qsort(sorted, (size_t)r, sizeof *sorted, cmp_double);
		double median = r % 2 ? sorted[r / 2] : (sorted[r / 2 - 1] + sorted[r / 2]) / 2;
		printf("floor\tkernels=%d\tdispatches=%d\trounds=%d\tmedian=%.1f\tmin=%.1f\tmax=%.1f\tns=",
		       cases[c], n, r, median, sorted[0], sorted[r - 1]);
		for (int i = 0; i < r; i++)
			printf(i ? ",%.1f" : "%.1f", ns[c * r + i]);
		printf("\n");
	}
	free(ns);
	free(sorted);
}

static void serve(int chunk) {
	char line[256];
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof line, stdin)) {
		int kernels;
		long long count;
		if (sscanf(line, "%d %lld", &kernels, &count) != 2 || kernels < 1 || kernels > nkernels || count < 1) {
			printf("error\tbad request %.*s (want \"KERNELS COUNT\", KERNELS 1 to %d)\n",
			       (int)strcspn(line, "\n"), line, nkernels);
		} else {
			int64_t ns = run(kernels, count, chunk);
			if (driver_error[0])
				printf("error\t%s\n", driver_error);
			else
				printf("ok\tkernels=%d\tdispatches=%lld\tns=%lld\n", kernels, count, (long long)ns);
		}
		fflush(stdout);
	}
}

int main(int argc, char **argv) {
	int r = 7, n = 1000, serving = 0, i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-serve") == 0)
			serving = 1;
		else if (strcmp(argv[i], "-rounds") == 0 && i + 1 < argc)
			r = atoi(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else
			die("usage: floor [-serve] [-rounds R] [-n N] K0.wgsl [K1.wgsl ...]");
	}
	nkernels = argc - i;
	if (nkernels < 1 || nkernels > MAX_KERNELS || r < 1 || n < 1)
		die("usage: floor [-serve] [-rounds R] [-n N] K0.wgsl [K1.wgsl ...] (1 to %d files)", MAX_KERNELS);
	char *srcs[MAX_KERNELS];
	for (int k = 0; k < nkernels; k++)
		srcs[k] = read_file(argv[i + k]);
	open_device(srcs, argv + i, nkernels);
	if (serving)
		serve(n);
	else
		rounds(r, n);
	return 0;
}
#else
// floor_open makes the device and one pipeline, buffer and bind group per
// kernel source (n of them, 1 to MAX_KERNELS), once a process. It returns
// NULL, or the failure's message (static storage); a failed open may be
// tried again (what it made is left).
static const char *floor_open(char **srcs, int n) {
	static int opened;
	if (opened)
		return "floor_open: the floor is open already";
	if (n < 1 || n > MAX_KERNELS)
		return "floor_open: 1 to 8 kernels";
	driver_error[0] = 0;
	if (setjmp(die_jmp))
		return die_msg;
	char *names[MAX_KERNELS];
	static char buf[MAX_KERNELS][16];
	for (int k = 0; k < n; k++) {
		snprintf(buf[k], sizeof buf[k], "kernel %d", k);
		names[k] = buf[k];
	}
	open_device(srcs, names, n);
	nkernels = n;
	opened = 1;
	return NULL;
}

// floor_run runs count dispatches over kernels pipelines in passes of at
// most chunk and returns the timed nanoseconds, or -1 with *err the
// driver's first error.
static int64_t floor_run(int kernels, int64_t count, int chunk, const char **err) {
	*err = NULL;
	if (kernels < 1 || kernels > nkernels || chunk < 1) {
		*err = "floor_run: bad request";
		return -1;
	}
	int64_t ns = run(kernels, count, chunk);
	if (driver_error[0]) {
		*err = driver_error;
		return -1;
	}
	return ns;
}
#endif
