/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the simulated machine is never rebooted, so a reboot
 * notifier registered is never called; kernel_power_off() (a torture
 * test's shutdown_secs) stops the machine: every CPU stops, as after a
 * BUG(), and the run ends there.
 */
#ifndef _LINUX_REBOOT_H
#define _LINUX_REBOOT_H

#include <linux/notifier.h>
#include <sim.h>

static inline int register_reboot_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_reboot_notifier(struct notifier_block *nb)
{
	return 0;
}

#define kernel_power_off()	sim_bug("kernel_power_off()", SIM_SITE())

#endif /* _LINUX_REBOOT_H */
