"""Preview images of PDF pages, for sending a sheet to the table's group chat."""

from __future__ import annotations

import io

from sheetgen.errors import OutputError

PREVIEW_DPI = 110


def pdf_to_png(pdf_bytes: bytes, page: int = 0, dpi: int = PREVIEW_DPI) -> bytes:
    """Render one page of a PDF (the first by default) to PNG bytes."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf_bytes)
    try:
        if not 0 <= page < len(document):
            raise OutputError(
                f"page {page + 1} does not exist; the PDF has {len(document)}", field="preview"
            )
        bitmap = document[page].render(scale=dpi / 72)
        image = bitmap.to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=False)
        return out.getvalue()
    finally:
        document.close()


def in_format(pdf_bytes: bytes, fmt: str) -> bytes:
    """The document in the format asked for: the PDF itself, or for ``png`` its first page."""
    return pdf_to_png(pdf_bytes) if fmt == "png" else pdf_bytes
