// html_text — the readable text of an HTML body, for letters that come without a text/plain
// part: <script> and <style> contents and every tag and comment dropped; <br>, </p>, </div>,
// </li>, </tr> and headings end a line; the character references &amp; &lt; &gt; &quot; &apos;
// &nbsp; and &#N; / &#xN; decoded (others kept as written); runs of spaces and tabs folded into
// one, at most one empty line in a row, no leading or trailing blank. Not an HTML parser: enough
// for mail to be read and searched.
#pragma once

#include <string>

namespace mail {

std::string html_to_text(const std::string& html);

}  // namespace mail
