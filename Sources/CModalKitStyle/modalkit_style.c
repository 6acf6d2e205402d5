#include "modalkit_style.h"
