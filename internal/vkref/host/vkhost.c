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
 *            buffer, 4 storage image, 5 sampled image, 6 sampler, 7
 *            combined image sampler), for kinds 2-5 and 7 u32 VkFormat,
 *            for kinds 4, 5 and 7 u32 VkImageType u32 VkImageViewType u32
 *            width height depth layers, for 5 and 7 u32 levels, for 6
 *            and 7 the sampler: u32 magFilter minFilter mipmapMode
 *            addressModeU V W borderColor unnormalizedCoordinates
 *            compareEnable compareOp, f32 mipLodBias minLod maxLod; then
 *            u64 size bytes[size] (an image's texels tightly packed,
 *            level after level, layer after layer)
 *            u32 npush bytes[npush]
 *            u32 nspec, per constant: u32 id u32 value
 *   reply:   u32 status (0 ran, 4 a format lacks the storage support the
 *            descriptor needs) str(message; on success the device name and
 *            its subgroup size), then, if it ran, per buffer u64 size
 *            bytes[size]
 *
 * An image is a VkImage of optimal tiling, filled from and read back to
 * its buffer by copies around the dispatch, in layout GENERAL while the
 * shader runs (a sampled image: SHADER_READ_ONLY_OPTIMAL, not read back).
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
	uint32_t fmt, itype, vtype, w, h, d, layers, levels; /* texel buffers and images */
	VkSamplerCreateInfo sci;                             /* samplers */
	VkSampler smp;
	uint64_t size;
	void *data;
	VkBuffer b;
	VkDeviceMemory m;
	VkBufferView bv;
	VkImage img;
	VkDeviceMemory im;
	VkImageView iv;
};

enum { kStorage, kUniform, kStorageTexel, kUniformTexel, kImage, kSampled, kSampler, kCombined, kKinds };

static const VkDescriptorType descTypes[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                             VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                             VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_SAMPLER,
                                             VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
static const VkBufferUsageFlags bufUsage[] = {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                              VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                                              VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT};

/* hasImage and hasSampler: what a descriptor kind holds. */
static int hasImage(uint32_t k) { return k == kImage || k == kSampled || k == kCombined; }
static int hasSampler(uint32_t k) { return k == kSampler || k == kCombined; }
static int isDepth(uint32_t fmt) { return fmt >= VK_FORMAT_D16_UNORM && fmt <= VK_FORMAT_D32_SFLOAT_S8_UINT; }

/* formatSupported says (status 4) when the device cannot use the format
   as the descriptor kind needs. */
static void formatSupported(VkPhysicalDevice pd, struct buf *b) {
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, b->fmt, &fp);
	int ok = b->kind == kStorageTexel ? fp.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
	       : b->kind == kUniformTexel ? fp.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
	       : b->kind == kImage        ? fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT
	                                  : fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
	if (ok && hasSampler(b->kind) && (b->sci.magFilter || b->sci.minFilter || b->sci.mipmapMode))
		ok = fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	if (!ok) {
		char m[128];
		snprintf(m, sizeof m, "VkFormat %u has no %s support", b->fmt,
		         b->kind == kImage ? "storage image" : hasImage(b->kind) ? "sampled image (or linear filter)" : "texel buffer");
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

static VkImageAspectFlags aspect(const struct buf *b) { return isDepth(b->fmt) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT; }

/* makeImage creates b's image and view. */
static void makeImage(VkDevice dev, const VkPhysicalDeviceMemoryProperties *mp, struct buf *b) {
	int cube = b->vtype == VK_IMAGE_VIEW_TYPE_CUBE || b->vtype == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
	VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
	                         .imageType = b->itype, .format = b->fmt, .extent = {b->w, b->h, b->d}, .mipLevels = b->levels,
	                         .arrayLayers = b->layers, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
	                         .usage = (b->kind == kImage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT) |
	                                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	                         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
	CK(vkCreateImage(dev, &ici, NULL, &b->img), "vkCreateImage");
	VkMemoryRequirements mr;
	vkGetImageMemoryRequirements(dev, b->img, &mr);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
	                            .memoryTypeIndex = memType(mp, mr.memoryTypeBits, 0)};
	CK(vkAllocateMemory(dev, &mai, NULL, &b->im), "vkAllocateMemory");
	CK(vkBindImageMemory(dev, b->img, b->im, 0), "vkBindImageMemory");
	VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = b->img, .viewType = b->vtype,
	                             .format = b->fmt, .subresourceRange = {aspect(b), 0, b->levels, 0, b->layers}};
	CK(vkCreateImageView(dev, &vci, NULL, &b->iv), "vkCreateImageView");
}

/* levelTexels is the number of texels of b's levels together. */
static uint64_t levelTexels(const struct buf *b) {
	uint64_t n = 0;
	for (uint32_t lv = 0; lv < b->levels; lv++) {
		uint32_t w = b->w >> lv ? b->w >> lv : 1, h = b->h >> lv ? b->h >> lv : 1, d = b->d >> lv ? b->d >> lv : 1;
		n += (uint64_t)w * h * d * b->layers;
	}
	return n ? n : 1;
}

/* imageCopy copies between b's buffer and image (toImage: into it), with
   the barriers around: before, from the layout and accesses the image
   has; after, to GENERAL for the shader, or to the host. */
static void imageCopy(VkCommandBuffer cb, struct buf *b, int toImage) {
	VkImageSubresourceRange rng = {aspect(b), 0, b->levels, 0, b->layers};
	VkImageLayout shaderLayout = b->kind == kImage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .image = b->img, .subresourceRange = rng,
	                           .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
	                           .oldLayout = toImage ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL,
	                           .newLayout = toImage ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL,
	                           .srcAccessMask = toImage ? 0 : VK_ACCESS_SHADER_WRITE_BIT,
	                           .dstAccessMask = toImage ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT};
	vkCmdPipelineBarrier(cb, toImage ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	VkBufferImageCopy r[16];
	uint64_t off = 0, texel = b->size / levelTexels(b);
	for (uint32_t lv = 0; lv < b->levels; lv++) {
		uint32_t w = b->w >> lv ? b->w >> lv : 1, h = b->h >> lv ? b->h >> lv : 1, d = b->d >> lv ? b->d >> lv : 1;
		r[lv] = (VkBufferImageCopy){.bufferOffset = off, .imageSubresource = {aspect(b), lv, 0, b->layers}, .imageExtent = {w, h, d}};
		off += (uint64_t)w * h * d * b->layers * texel;
	}
	if (toImage) {
		vkCmdCopyBufferToImage(cb, b->b, b->img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, b->levels, r);
		ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		ib.newLayout = shaderLayout;
		ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		return;
	}
	vkCmdCopyImageToBuffer(cb, b->img, VK_IMAGE_LAYOUT_GENERAL, b->b, b->levels, r);
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	                      .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* readSampler reads a sampler's description. */
static void readSampler(VkSamplerCreateInfo *s) {
	*s = (VkSamplerCreateInfo){.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	s->magFilter = ru32();
	s->minFilter = ru32();
	s->mipmapMode = ru32();
	s->addressModeU = ru32();
	s->addressModeV = ru32();
	s->addressModeW = ru32();
	s->borderColor = ru32();
	s->unnormalizedCoordinates = ru32();
	s->compareEnable = ru32();
	s->compareOp = ru32();
	uint32_t f[3] = {ru32(), ru32(), ru32()};
	memcpy(&s->mipLodBias, &f[0], 4);
	memcpy(&s->minLod, &f[1], 4);
	memcpy(&s->maxLod, &f[2], 4);
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
		uint32_t k = bufs[i].kind;
		if (k >= kKinds) die("bad descriptor kind");
		if (k >= kStorageTexel && k != kSampler) bufs[i].fmt = ru32();
		bufs[i].levels = 1;
		if (hasImage(k)) {
			bufs[i].itype = ru32();
			bufs[i].vtype = ru32();
			bufs[i].w = ru32();
			bufs[i].h = ru32();
			bufs[i].d = ru32();
			bufs[i].layers = ru32();
			if (k != kImage) bufs[i].levels = ru32();
			if (bufs[i].levels < 1 || bufs[i].levels > 16) die("bad level count");
		}
		if (hasSampler(k)) readSampler(&bufs[i].sci);
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
		if (b->kind >= kStorageTexel && b->kind != kSampler) formatSupported(pd, b);
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
		} else if (hasImage(b->kind) || hasSampler(b->kind)) {
			if (hasImage(b->kind)) makeImage(dev, &mp, b);
			if (hasSampler(b->kind)) CK(vkCreateSampler(dev, &b->sci, NULL, &b->smp), "vkCreateSampler");
			ii[i] = (VkDescriptorImageInfo){.imageView = b->iv, .sampler = b->smp,
			                                .imageLayout = b->kind == kImage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
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
	VkDescriptorPoolSize ps[kKinds];
	for (int k = 0; k < kKinds; k++) ps[k] = (VkDescriptorPoolSize){descTypes[k], nbuf + 1};
	VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = kKinds, .pPoolSizes = ps};
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
		if (hasImage(bufs[i].kind)) imageCopy(cb, &bufs[i], 1);
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
