// Browser uploads (up to 8 MB, where images/upload takes 512 KB): GET /ui/images is a page
// that reads a file, base64-encodes it and posts it as JSON to POST /ui/images with the session's
// CSRF token; the account is the signed-in one. Same checks as images/upload, 8 MB decoded.
#include "images.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const schema::Object kBrowserUploadSchema =
    schema::object()
        .str("data")
        .max_len(11200000)
        .required()
        .doc("The image, base64 (PNG, JPEG or GIF; at most 8 MB decoded and 8 megapixels)")
        .str("description")
        .max_len(1000)
        .doc("What the image shows");

const schema::Object kNoArgs = schema::object();

constexpr const char* kPage = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upload an image</title>
<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}
label{display:block;margin-top:1em}input,textarea{width:100%;box-sizing:border-box}</style></head><body>
<h1>Upload an image</h1>
<p>PNG, JPEG or GIF, at most 8 MB and 8 megapixels. The image stays private until you make it public.</p>
<form id="upload">
<label for="file">Image</label><input id="file" type="file" accept="image/png,image/jpeg,image/gif" required>
<label for="description">Description</label><textarea id="description" rows="3" maxlength="1000"></textarea>
<p><button type="submit">Upload</button></p>
</form>
<p id="result" role="status"></p>
<script>
const result = document.getElementById('result');
function cookie(name) {
  const m = document.cookie.split('; ').find(c => c.startsWith(name + '='));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : '';
}
document.getElementById('upload').addEventListener('submit', ev => {
  ev.preventDefault();
  const file = document.getElementById('file').files[0];
  if (!file) return;
  if (file.size > 8 * 1024 * 1024) { result.textContent = 'That file is larger than 8 MB.'; return; }
  const reader = new FileReader();
  reader.onload = async () => {
    const data = String(reader.result).replace(/^data:[^,]*,/, '');
    result.textContent = 'Uploading…';
    const r = await fetch('/ui/images', {method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', 'X-CSRF-Token': cookie('platform_csrf')},
      body: JSON.stringify({data, description: document.getElementById('description').value})});
    const body = await r.json().catch(() => ({}));
    if (r.ok) {
      const image = body.data || body;
      result.innerHTML = '';
      const a = document.createElement('a');
      a.href = image.url; a.textContent = 'Uploaded: ' + image.id;
      result.appendChild(a);
    } else {
      result.textContent = (body.error && body.error.message) || body.Detail || ('Upload failed: ' + r.status);
    }
  };
  reader.readAsDataURL(file);
});
</script>
</body></html>
)html";

}  // namespace

void Images::describe_browser_upload(platform::ServiceSpec<Images>& s) {
    s.get("upload_page")
        .title("Image upload page")
        .description("GET /ui/images: the browser's upload form.")
        .schema(kNoArgs)
        .access(platform::Access::public_)
        .read_only()
        .http_path("/ui/images")
        .mcp_hidden()
        .async(&Images::upload_page);
    s.post("browser_upload")
        .title("Upload an image from the browser")
        .description(
            "POST /ui/images from the upload page: like upload, with the browser limit of 8 MB "
            "decoded.")
        .schema(kBrowserUploadSchema)
        .access(platform::Access::owner)
        .max_body(11300 * 1024)
        .http_path("/ui/images")
        .mcp_hidden()
        .handler(&Images::browser_upload);
}

void Images::upload_page(platform::Request&, platform::Responder out) {
    out.raw("text/html; charset=utf-8", kPage);
}

json Images::browser_upload(platform::Request& r) {
    return store_upload(r, kMaxBrowserBytes, "8 MB");
}
