/*
 * libModalKitATKBridge.so exports one function, whose table is described in modalkit_atk.h
 * (target CModalKitATKInterface). Programs do not link this library: ModalKitATK loads it with
 * dlopen and looks the function up by its name, MODALKIT_ATK_INTERFACE_SYMBOL.
 */
#ifndef MODALKIT_ATK_BRIDGE_H
#define MODALKIT_ATK_BRIDGE_H

#include "modalkit_atk.h"

const struct modalkit_atk_interface *modalkit_atk_interface(void);

#endif
