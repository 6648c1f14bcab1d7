/*
 * vkhost: the Vulkan compute host of spvx's GLCompute oracle (package
 * vkref). Built with gcc against the system's Vulkan loader when a test first
 * needs it, and run as a process: spvx itself has no cgo.
 *
 * One request on standard input, one reply on standard output, little-endian:
 *
 *   request: "VKH1" str(device name substring) u32 nwords words[nwords]
 *            str(entry point) u32 groups[3]
 *            u32 nbuf, per buffer: u32 binding (set 0) u32 kind (0 storage,
 *            1 uniform buffer, 2 storage texel buffer, 3 uniform texel
 *            buffer, 4 storage image), for kinds 2-4 u32 VkFormat, for
 *            kind 4 u32 VkImageType u32 VkImageViewType u32 width height
 *            depth layers, then u64 size bytes[size] (an image's texels
 *            tightly packed, layer after layer)
 *            u32 npush bytes[npush]
 *            u32 nspec, per constant: u32 id u32 value
 *   reply:   u32 status (0 ran, 4 a format lacks the storage support the
 *            descriptor needs) str(message; on success the device name and
 *            its subgroup size), then, if it ran, per buffer u64 size
 *            bytes[size]
 *
 * An image is a VkImage of optimal tiling, filled from and read back to
 * its buffer by copies around the dispatch, in layout GENERAL while the
 * shader runs.
 *
 * str is u32 length then bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

static void die(const char *m) {
	fprintf(stderr, "vkhost: %s\n", m);
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
	if (n > ((uint64_t)1 << 31)) die("request field too large");
	char *p = malloc(n + 1);
	if (!p) die("out of memory");
	readn(p, n);
	p[n] = 0;
	return p;
}

static void wn(const void *p, size_t n) {
	if (n && fwrite(p, 1, n, stdout) != n) die("short write");
}

static void wu32(uint32_t v) {
	uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};
	wn(b, 4);
}

static void wstr(const char *s) {
	wu32((uint32_t)strlen(s));
	wn(s, strlen(s));
}

static void fail(const char *what, VkResult r) {
	char m[256];
	snprintf(m, sizeof m, "%s failed: VkResult %d", what, (int)r);
	wu32(1);
	wstr(m);
	exit(0);
}

#define CK(call, what)                         \
	do {                                       \
		VkResult r_ = (call);                  \
		if (r_ != VK_SUCCESS) fail(what, r_); \
	} while (0)

struct buf {
	uint32_t binding, kind;
	uint32_t fmt, itype, vtype, w, h, d, layers; /* texel buffers and images */
	uint64_t size;
	void *data;
	VkBuffer b;
	VkDeviceMemory m;
	VkBufferView bv;
	VkImage img;
	VkDeviceMemory im;
	VkImageView iv;
};

enum { kStorage, kUniform, kStorageTexel, kUniformTexel, kImage };

static const VkDescriptorType descTypes[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                             VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
static const VkBufferUsageFlags bufUsage[] = {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                              VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                                              VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};

/* formatSupported says (status 4) when the device cannot use the format
   as the descriptor kind needs. */
static void formatSupported(VkPhysicalDevice pd, struct buf *b) {
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, b->fmt, &fp);
	int ok = b->kind == kStorageTexel ? fp.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
	       : b->kind == kUniformTexel ? fp.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
	                                  : fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
	if (!ok) {
		char m[128];
		snprintf(m, sizeof m, "VkFormat %u has no %s support", b->fmt, b->kind == kImage ? "storage image" : "texel buffer");
		wu32(4);
		wstr(m);
		exit(0);
	}
}

static uint32_t memType(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, VkMemoryPropertyFlags need) {
	uint32_t mt = 0;
	while (mt < mp->memoryTypeCount && !((bits >> mt & 1) && (mp->memoryTypes[mt].propertyFlags & need) == need)) mt++;
	if (mt == mp->memoryTypeCount) die("no suitable memory");
	return mt;
}

/* makeImage creates b's image and view. */
static void makeImage(VkDevice dev, const VkPhysicalDeviceMemoryProperties *mp, struct buf *b) {
	int cube = b->vtype == VK_IMAGE_VIEW_TYPE_CUBE || b->vtype == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
	VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
	                         .imageType = b->itype, .format = b->fmt, .extent = {b->w, b->h, b->d}, .mipLevels = 1,
	                         .arrayLayers = b->layers, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
	                         .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	                         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
	CK(vkCreateImage(dev, &ici, NULL, &b->img), "vkCreateImage");
	VkMemoryRequirements mr;
	vkGetImageMemoryRequirements(dev, b->img, &mr);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
	                            .memoryTypeIndex = memType(mp, mr.memoryTypeBits, 0)};
	CK(vkAllocateMemory(dev, &mai, NULL, &b->im), "vkAllocateMemory");
	CK(vkBindImageMemory(dev, b->img, b->im, 0), "vkBindImageMemory");
	VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = b->img, .viewType = b->vtype,
	                             .format = b->fmt, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, b->layers}};
	CK(vkCreateImageView(dev, &vci, NULL, &b->iv), "vkCreateImageView");
}

/* imageCopy copies between b's buffer and image (toImage: into it), with
   the barriers around: before, from the layout and accesses the image
   has; after, to GENERAL for the shader, or to the host. */
static void imageCopy(VkCommandBuffer cb, struct buf *b, int toImage) {
	VkImageSubresourceRange rng = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, b->layers};
	VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .image = b->img, .subresourceRange = rng,
	                           .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
	                           .oldLayout = toImage ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL,
	                           .newLayout = toImage ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL,
	                           .srcAccessMask = toImage ? 0 : VK_ACCESS_SHADER_WRITE_BIT,
	                           .dstAccessMask = toImage ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT};
	vkCmdPipelineBarrier(cb, toImage ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	VkBufferImageCopy r = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, b->layers}, .imageExtent = {b->w, b->h, b->d}};
	if (toImage) {
		vkCmdCopyBufferToImage(cb, b->b, b->img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
		ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		return;
	}
	vkCmdCopyImageToBuffer(cb, b->img, VK_IMAGE_LAYOUT_GENERAL, b->b, 1, &r);
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	                      .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

int main(void) {
	if (ru32() != 0x31484b56u) die("bad magic");
	char *want = rbytes(ru32());
	uint32_t nwords = ru32();
	uint32_t *words = rbytes((uint64_t)nwords * 4);
	char *entry = rbytes(ru32());
	uint32_t groups[3] = {ru32(), ru32(), ru32()};
	uint32_t nbuf = ru32();
	struct buf *bufs = calloc(nbuf ? nbuf : 1, sizeof *bufs);
	for (uint32_t i = 0; i < nbuf; i++) {
		bufs[i].binding = ru32();
		bufs[i].kind = ru32();
		if (bufs[i].kind > kImage) die("bad descriptor kind");
		if (bufs[i].kind >= kStorageTexel) bufs[i].fmt = ru32();
		if (bufs[i].kind == kImage) {
			bufs[i].itype = ru32();
			bufs[i].vtype = ru32();
			bufs[i].w = ru32();
			bufs[i].h = ru32();
			bufs[i].d = ru32();
			bufs[i].layers = ru32();
		}
		bufs[i].size = ru64();
		bufs[i].data = rbytes(bufs[i].size);
	}
	uint32_t npush = ru32();
	void *push = rbytes(npush);
	uint32_t nspec = ru32();
	VkSpecializationMapEntry *se = calloc(nspec ? nspec : 1, sizeof *se);
	uint32_t *sv = calloc(nspec ? nspec : 1, 4);
	for (uint32_t i = 0; i < nspec; i++) {
		se[i].constantID = ru32();
		sv[i] = ru32();
		se[i].offset = 4 * i;
		se[i].size = 4;
	}

	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
	VkInstance inst;
	CK(vkCreateInstance(&ici, NULL, &inst), "vkCreateInstance");
	uint32_t ndev = 16;
	VkPhysicalDevice devs[16];
	CK(vkEnumeratePhysicalDevices(inst, &ndev, devs), "vkEnumeratePhysicalDevices");
	VkPhysicalDevice pd = VK_NULL_HANDLE;
	VkPhysicalDeviceProperties props;
	for (uint32_t i = 0; i < ndev; i++) {
		vkGetPhysicalDeviceProperties(devs[i], &props);
		if (!*want || strstr(props.deviceName, want)) {
			pd = devs[i];
			break;
		}
	}
	if (pd == VK_NULL_HANDLE) {
		fprintf(stderr, "vkhost: no Vulkan device named like \"%s\"\n", want);
		exit(3);
	}
	VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sg};
	vkGetPhysicalDeviceProperties2(pd, &p2);
	uint32_t nq = 16;
	VkQueueFamilyProperties qf[16];
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
	uint32_t qi = 0;
	while (qi < nq && !(qf[qi].queueFlags & VK_QUEUE_COMPUTE_BIT)) qi++;
	if (qi == nq) die("no compute queue");
	float prio = 1;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = qi,
	                               .queueCount = 1, .pQueuePriorities = &prio};
	VkPhysicalDeviceFeatures feats;
	vkGetPhysicalDeviceFeatures(pd, &feats);
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
	                          .pQueueCreateInfos = &qci, .pEnabledFeatures = &feats};
	/* Compute derivatives, where the device has them: the extension and
	   every feature it reports. */
	uint32_t next = 0;
	vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL);
	VkExtensionProperties *eps = calloc(next ? next : 1, sizeof *eps);
	vkEnumerateDeviceExtensionProperties(pd, NULL, &next, eps);
	static const char *derivExt[] = {"VK_NV_compute_shader_derivatives"};
	VkPhysicalDeviceComputeShaderDerivativesFeaturesNV deriv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
	for (uint32_t i = 0; i < next; i++) {
		if (strcmp(eps[i].extensionName, derivExt[0]) == 0) {
			VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &deriv};
			vkGetPhysicalDeviceFeatures2(pd, &f2);
			deriv.pNext = NULL;
			dci.enabledExtensionCount = 1;
			dci.ppEnabledExtensionNames = derivExt;
			dci.pNext = &deriv;
		}
	}
	VkDevice dev;
	CK(vkCreateDevice(pd, &dci, NULL, &dev), "vkCreateDevice");
	VkQueue q;
	vkGetDeviceQueue(dev, qi, 0, &q);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);

	VkDescriptorSetLayoutBinding *lb = calloc(nbuf ? nbuf : 1, sizeof *lb);
	VkDescriptorBufferInfo *bi = calloc(nbuf ? nbuf : 1, sizeof *bi);
	VkDescriptorImageInfo *ii = calloc(nbuf ? nbuf : 1, sizeof *ii);
	VkWriteDescriptorSet *wr = calloc(nbuf ? nbuf : 1, sizeof *wr);
	for (uint32_t i = 0; i < nbuf; i++) {
		struct buf *b = &bufs[i];
		VkDescriptorType dt = descTypes[b->kind];
		if (b->kind >= kStorageTexel) formatSupported(pd, b);
		VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = b->size ? b->size : 4,
		                          .usage = bufUsage[b->kind]};
		CK(vkCreateBuffer(dev, &bci, NULL, &b->b), "vkCreateBuffer");
		VkMemoryRequirements mr;
		vkGetBufferMemoryRequirements(dev, b->b, &mr);
		uint32_t mt = memType(&mp, mr.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
		VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size, .memoryTypeIndex = mt};
		CK(vkAllocateMemory(dev, &mai, NULL, &b->m), "vkAllocateMemory");
		CK(vkBindBufferMemory(dev, b->b, b->m, 0), "vkBindBufferMemory");
		void *p;
		CK(vkMapMemory(dev, b->m, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
		memcpy(p, b->data, b->size);
		vkUnmapMemory(dev, b->m);
		lb[i] = (VkDescriptorSetLayoutBinding){.binding = b->binding, .descriptorType = dt, .descriptorCount = 1,
		                                       .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
		bi[i] = (VkDescriptorBufferInfo){.buffer = b->b, .offset = 0, .range = VK_WHOLE_SIZE};
		wr[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = b->binding,
		                               .descriptorCount = 1, .descriptorType = dt, .pBufferInfo = &bi[i]};
		if (b->kind == kStorageTexel || b->kind == kUniformTexel) {
			VkBufferViewCreateInfo bvci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, .buffer = b->b, .format = b->fmt,
			                               .range = VK_WHOLE_SIZE};
			CK(vkCreateBufferView(dev, &bvci, NULL, &b->bv), "vkCreateBufferView");
			wr[i].pBufferInfo = NULL;
			wr[i].pTexelBufferView = &b->bv;
		} else if (b->kind == kImage) {
			makeImage(dev, &mp, b);
			ii[i] = (VkDescriptorImageInfo){.imageView = b->iv, .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
			wr[i].pBufferInfo = NULL;
			wr[i].pImageInfo = &ii[i];
		}
	}
	VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = nbuf, .pBindings = lb};
	VkDescriptorSetLayout dsl;
	CK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl), "vkCreateDescriptorSetLayout");
	VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = npush};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
	                                   .pSetLayouts = &dsl, .pushConstantRangeCount = npush ? 1 : 0, .pPushConstantRanges = &pcr};
	VkPipelineLayout pl;
	CK(vkCreatePipelineLayout(dev, &plci, NULL, &pl), "vkCreatePipelineLayout");
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)nwords * 4, .pCode = words};
	VkShaderModule sm;
	CK(vkCreateShaderModule(dev, &smci, NULL, &sm), "vkCreateShaderModule");
	VkSpecializationInfo si = {.mapEntryCount = nspec, .pMapEntries = se, .dataSize = 4 * nspec, .pData = sv};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = pl,
	                                    .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
	                                              .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm, .pName = entry,
	                                              .pSpecializationInfo = nspec ? &si : NULL}};
	VkPipeline pipe;
	CK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe), "vkCreateComputePipelines");
	VkDescriptorPoolSize ps[5];
	for (int k = 0; k < 5; k++) ps[k] = (VkDescriptorPoolSize){descTypes[k], nbuf + 1};
	VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 5, .pPoolSizes = ps};
	VkDescriptorPool dp;
	CK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp), "vkCreateDescriptorPool");
	VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dp,
	                                    .descriptorSetCount = 1, .pSetLayouts = &dsl};
	VkDescriptorSet ds;
	CK(vkAllocateDescriptorSets(dev, &dsai, &ds), "vkAllocateDescriptorSets");
	for (uint32_t i = 0; i < nbuf; i++) wr[i].dstSet = ds;
	if (nbuf) vkUpdateDescriptorSets(dev, nbuf, wr, 0, NULL);
	VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = qi};
	VkCommandPool cp;
	CK(vkCreateCommandPool(dev, &cpi, NULL, &cp), "vkCreateCommandPool");
	VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = cp,
	                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
	VkCommandBuffer cb;
	CK(vkAllocateCommandBuffers(dev, &cbai, &cb), "vkAllocateCommandBuffers");
	VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	CK(vkBeginCommandBuffer(cb, &cbbi), "vkBeginCommandBuffer");
	for (uint32_t i = 0; i < nbuf; i++)
		if (bufs[i].kind == kImage) imageCopy(cb, &bufs[i], 1);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
	if (npush) vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, npush, push);
	vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
	for (uint32_t i = 0; i < nbuf; i++)
		if (bufs[i].kind == kImage) imageCopy(cb, &bufs[i], 0);
	CK(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	CK(vkCreateFence(dev, &fci, NULL, &fence), "vkCreateFence");
	VkSubmitInfo sub = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	CK(vkQueueSubmit(q, 1, &sub, fence), "vkQueueSubmit");
	CK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
	char msg[300];
	snprintf(msg, sizeof msg, "%s; subgroup size %u", props.deviceName, sg.subgroupSize);
	wu32(0);
	wstr(msg);
	for (uint32_t i = 0; i < nbuf; i++) {
		void *p;
		CK(vkMapMemory(dev, bufs[i].m, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
		uint64_t n = bufs[i].size;
		wu32((uint32_t)n);
		wu32((uint32_t)(n >> 32));
		wn(p, n);
		vkUnmapMemory(dev, bufs[i].m);
	}
	fflush(stdout);
	return 0;
}
