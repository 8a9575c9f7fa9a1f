// A fixture for the layering check's own test: the engine reaching into the
// FX layer, which the check must reject.
#pragma once
#include "graph/graph.hpp"
