//! Just enough JSON for hello, with no crates: read one string member of an object, write a
//! string escaped. A service with richer arguments would use a JSON crate (serde_json) instead.

/// Appends `text` as the inside of a JSON string: `"` and `\` escaped, control characters as
/// `\n`, `\t`... or `\u00XX`; everything else (UTF-8 included) as it is.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn space(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.space();
        if self.peek()? == b {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.i..self.i + 4)?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }

    /// A string at the cursor, decoded (escapes, \u with surrogate pairs; a lone surrogate
    /// becomes U+FFFD).
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        loop {
            let b = self.peek()?;
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                match self.hex4()? {
                                    lo @ 0xDC00..=0xDFFF => 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00),
                                    _ => {
                                        self.i = save;
                                        0xFFFD
                                    }
                                }
                            } else {
                                hi
                            };
                            char::from_u32(cp).unwrap_or('\u{FFFD}')
                        }
                        _ => return None,
                    };
                    let mut tmp = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                }
                b => out.push(b),
            }
        }
    }

    /// Skips one value of any kind; strings are read as strings (they may hold brackets).
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0i32;
        loop {
            self.space();
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.i += 1;
                }
                b'}' | b']' => {
                    depth -= 1;
                    if depth < 0 {
                        return None;
                    }
                    self.i += 1;
                }
                b',' | b':' if depth > 0 => self.i += 1,
                b',' | b':' => return None,
                _ => {
                    while let Some(b) = self.peek() {
                        if b",:{}[]\" \t\r\n".contains(&b) {
                            break;
                        }
                        self.i += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

/// The top-level member `key` of a JSON object when it is a string: `Ok(Some)`; `Ok(None)` when
/// absent or not a string; `Err(())` for malformed JSON.
pub fn get_string(json: &[u8], key: &str) -> Result<Option<String>, ()> {
    let mut r = Reader { s: json, i: 0 };
    r.eat(b'{').ok_or(())?;
    r.space();
    if r.peek() == Some(b'}') {
        return Ok(None);
    }
    loop {
        let name = r.string().ok_or(())?;
        r.eat(b':').ok_or(())?;
        r.space();
        if name == key {
            return if r.peek() == Some(b'"') { r.string().map(Some).ok_or(()) } else { Ok(None) };
        }
        r.skip_value().ok_or(())?;
        r.space();
        match r.peek() {
            Some(b',') => r.i += 1,
            Some(b'}') => return Ok(None),
            _ => return Err(()),
        }
        r.space();
    }
}

/// The integer after `"count":` in a record this plugin wrote (`{"count":N}`); 0 when absent.
pub fn record_count(record: &[u8]) -> i64 {
    let field = b"\"count\":";
    match record.windows(field.len()).position(|w| w == field) {
        None => 0,
        Some(at) => record[at + field.len()..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .fold(0i64, |n, b| n * 10 + i64::from(b - b'0')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_string_member() {
        assert_eq!(get_string(br#"{"name":"Ada"}"#, "name"), Ok(Some("Ada".to_string())));
        assert_eq!(
            get_string(br#" { "x" : [1, {"a": "}\""}, true], "name" : "Bo" } "#, "name"),
            Ok(Some("Bo".to_string()))
        );
        assert_eq!(
            get_string(br#"{"name":"A \"q\" \\ \u00e9 \ud83d\ude00 \n"}"#, "name"),
            Ok(Some("A \"q\" \\ \u{e9} \u{1F600} \n".to_string()))
        );
        assert_eq!(get_string(br#"{"name":1}"#, "name"), Ok(None));
        assert_eq!(get_string(br#"{}"#, "name"), Ok(None));
        assert_eq!(get_string(br#"{"name":"open"#, "name"), Err(()));
    }

    #[test]
    fn escapes_a_string() {
        let mut s = String::new();
        escape_into(&mut s, "A \"q\" \\ \u{e9} \n\u{1}");
        assert_eq!(s, "A \\\"q\\\" \\\\ \u{e9} \\n\\u0001");
    }

    #[test]
    fn reads_a_count() {
        assert_eq!(record_count(br#"{"count":41}"#), 41);
        assert_eq!(record_count(b""), 0);
    }
}
