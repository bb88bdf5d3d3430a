/**
 * CPU frequency classes (cri-resmgr's {@code cpu} controller): the {@code cpu} configuration
 * section, the cpufreq and Intel uncore limits a class sets under {@code /sys}, and the {@code cpu}
 * controller that writes them for the CPU classes the active policy assigns.
 */
@NullMarked
package io.criresmgr.controllers.cpu;

import org.jspecify.annotations.NullMarked;
