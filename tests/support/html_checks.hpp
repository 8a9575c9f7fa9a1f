// Checks on generated HTML pages (`eqfuse explain --format html`), shared by
// the golden tests: tags are balanced and the page needs nothing from the
// network; the section under a heading.
//
//   std::string why;
//   EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
//   testing_support::expect_self_contained(html);
#pragma once
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace eqfuse::testing_support {

// Non-void HTML/SVG elements open and close in order ("<x/>" closes itself).
inline bool tags_balanced(const std::string& html, std::string& why) {
  static const std::set<std::string> kVoid = {"meta", "br", "hr", "img", "link", "input"};
  std::vector<std::string> open;
  for (size_t i = html.find('<'); i != std::string::npos; i = html.find('<', i + 1)) {
    if (html.compare(i, 4, "<!--") == 0) {
      i = html.find("-->", i);
      continue;
    }
    if (html.compare(i, 2, "<!") == 0) continue;
    size_t end = html.find('>', i);
    if (end == std::string::npos) return (why = "unterminated tag"), false;
    std::string tag = html.substr(i + 1, end - i - 1);
    bool closing = tag.starts_with("/");
    bool self_closing = tag.ends_with("/");
    std::string name =
        tag.substr(closing ? 1 : 0, tag.find_first_of(" \n/", closing ? 1 : 0) - (closing ? 1 : 0));
    if (self_closing || kVoid.count(name)) continue;
    if (!closing) {
      open.push_back(name);
    } else if (open.empty() || open.back() != name) {
      return (why = "unexpected </" + name + ">"), false;
    } else {
      open.pop_back();
    }
  }
  if (!open.empty()) return (why = "unclosed <" + open.back() + ">"), false;
  return true;
}

// The text between `<h2>{title}</h2>` and the next `<h2>` ("" if absent).
inline std::string section(const std::string& html, const std::string& title) {
  size_t start = html.find("<h2>" + title + "</h2>");
  if (start == std::string::npos) return {};
  size_t end = html.find("<h2>", start + 1);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// No links, scripts, images, style imports or fonts from elsewhere.
inline void expect_self_contained(const std::string& html) {
  for (const char* external : {"href=\"http", "src=", "<link", "@import", "url("})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
}

}  // namespace eqfuse::testing_support
