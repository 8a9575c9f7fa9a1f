// Text for HTML pages: the one escape function every report (explain,
// calibration) uses for names and messages it writes into markup.
//
//   out += "<td>" + escape_html(op_name) + "</td>";
#pragma once
#include <string>
#include <string_view>

namespace eqfuse {

// `&`, `<`, `>` and `"` as entities; everything else unchanged.
std::string escape_html(std::string_view s);

}  // namespace eqfuse
