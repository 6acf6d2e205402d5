import CModalKitPixman
import ModalKit
import ModalKitText

extension TextField {
    /// One line as drawn at a scale: the shown string (text with the preedit at the caret, bullets
    /// when secure), its caret layout, where the model's caret and the preedit are in it (character
    /// indices), and where the line starts, buffer pixels.
    struct Line {
        var font: PixmanFont
        /// The shown string laid out (drawn from it: no shaping of its own).
        var editable: EditableLine
        var shown: String
        var layout: CaretLayout
        /// The model's caret, a character index into `shown`.
        var caret: Int
        /// The preedit's characters in `shown` (empty: none).
        var preedit: Range<Int>
        /// The preedit's cursor, character indices into `shown` (nil: hidden).
        var preeditCursor: Range<Int>?
        /// The line's origin (left end of the baseline) and the text area's left and right edges.
        var originX: Int, baseline: Int, top: Int, lineHeight: Int, areaLeft: Int, areaRight: Int

        /// The caret's x, buffer pixels (the preedit's cursor while one is shown).
        var caretX: Int? {
            if !preedit.isEmpty {
                guard let c = preeditCursor else { return nil }
                return originX + position(c.upperBound)
            }
            return originX + position(caret)
        }
        func position(_ i: Int) -> Int { layout.positions[min(max(0, i), layout.positions.count - 1)] }
    }

    /// Whether the caret is on at `t` (monotonic seconds): solid for a blink interval after input and
    /// after the blink timeout, otherwise on and off every ``blinkInterval``.
    public func caretOn(at t: Double) -> Bool {
        let elapsed = t - lastActivity
        guard elapsed >= TextField.blinkInterval, elapsed < TextField.blinkTimeout else { return true }
        return Int(elapsed / TextField.blinkInterval) % 2 == 0
    }

    /// When the caret next turns on or off (monotonic seconds), nil while the field has no focus or
    /// after the blink timeout (the caret stays solid, nothing to redraw).
    public var nextBlinkTime: Double? {
        guard isFocused else { return nil }
        let elapsed = clock() - lastActivity
        guard elapsed < TextField.blinkTimeout else { return nil }
        let next = (max(0, elapsed) / TextField.blinkInterval).rounded(.down) + 1
        return lastActivity + min(next * TextField.blinkInterval, TextField.blinkTimeout)
    }

    /// ``displayText`` without a string made per frame: a secure field's bullets are kept and
    /// changed in place.
    func shownText() -> String {
        guard isSecure else { return model.text }
        let n = model.characterCount
        if bulletCount != n || bullets.isEmpty != (n == 0) {
            bullets.removeAll(keepingCapacity: true)
            for _ in 0..<n { bullets.append("•") }
            bulletCount = n
        }
        return bullets
    }

    /// The line at `scale`, scrolled so the caret stays inside the text area (`updateScroll`), or
    /// with the scroll of the last draw.
    func line(scale s: Double, updateScroll: Bool) -> Line? {
        guard let font = style.font(scale: s) else { return nil }
        let caretChars = model.characterIndex(ofByte: model.caret)
        let shown: String, preedit: Range<Int>, preeditCursor: Range<Int>?
        if let p = model.preedit {
            let pt = isSecure ? String(repeating: "•", count: p.text.count) : p.text
            let before = isSecure ? String(repeating: "•", count: caretChars) : String(model.text[..<model.index(model.caret)])
            let after = isSecure ? String(repeating: "•", count: model.characterCount - caretChars)
                : String(model.text[model.index(model.caret)...])
            shown = before + pt + after
            preedit = caretChars..<(caretChars + pt.count)
            preeditCursor = p.cursor.map { r in
                let u = p.text.utf8
                func chars(_ b: Int) -> Int {
                    isSecure ? p.text.unicodeScalars.count : p.text.distance(from: p.text.startIndex, to: u.index(u.startIndex, offsetBy: b))
                }
                return (caretChars + chars(r.lowerBound))..<(caretChars + chars(r.upperBound))
            }
        } else {
            shown = shownText()
            preedit = caretChars..<caretChars
            preeditCursor = nil
        }
        let editable: EditableLine
        if let e = editableLine, e.font === font {
            editable = e
        } else {
            editable = EditableLine(font: font)
            editableLine = editable
        }
        editable.update(shown)
        let layout = editable.caret
        let lineHeight = font.ascent + font.descent
        let top = Int((Double(px(size.height, s) - lineHeight) / 2).rounded(.down))
        let areaLeft = px(TextField.padding, s), areaRight = max(areaLeft + 1, px(size.width - TextField.padding, s))
        let areaWidth = areaRight - areaLeft
        let rightToLeft = ParagraphDirection(of: shown.isEmpty ? placeholder : shown) == .rightToLeft
        if scrollScale != s { scrollPixels = 0; scrollScale = s }
        var originX: Int
        let caretWidth = max(1, px(TextField.caretWidth, s))
        if layout.width + caretWidth <= areaWidth {
            scrollPixels = 0
            originX = rightToLeft ? areaRight - layout.width - caretWidth : areaLeft
        } else {
            var scroll = scrollPixels
            if updateScroll {
                let c = layout.positions[min(preeditCursor?.upperBound ?? caretChars, layout.positions.count - 1)]
                if c - scroll < 0 { scroll = c }
                if c - scroll + caretWidth > areaWidth { scroll = c + caretWidth - areaWidth }
                scroll = min(max(0, scroll), layout.width + caretWidth - areaWidth)
                scrollPixels = scroll
            }
            originX = areaLeft - scroll
        }
        return Line(font: font, editable: editable, shown: shown, layout: layout, caret: caretChars, preedit: preedit, preeditCursor: preeditCursor,
                    originX: originX, baseline: top + font.ascent, top: top, lineHeight: lineHeight,
                    areaLeft: areaLeft, areaRight: areaRight)
    }

    /// The caret's rectangle in the field's points (the preedit's cursor while one is shown), for
    /// the input method's candidate window.
    public var caretRectangle: Rect {
        let s = scrollScale > 0 ? scrollScale : 1
        guard let l = line(scale: s, updateScroll: false) else { return Rect(x: TextField.padding, y: 0, width: 1, height: size.height) }
        let x = l.caretX ?? (l.originX + l.position(l.preedit.upperBound))
        return Rect(x: Double(x) / s, y: Double(l.top) / s, width: TextField.caretWidth, height: Double(l.lineHeight) / s)
    }

    /// The model's byte offset nearest to `x` (the field's points), by the last drawn line.
    func offset(atX x: Double) -> Int {
        let s = scrollScale > 0 ? scrollScale : 1
        guard let l = line(scale: s, updateScroll: false) else { return model.caret }
        var k = l.layout.boundary(nearest: Int((x * s).rounded()) - l.originX)
        if !l.preedit.isEmpty {
            if k > l.preedit.upperBound { k -= l.preedit.count } else if k > l.preedit.lowerBound { k = l.preedit.lowerBound }
        }
        return model.byteOffset(ofCharacter: k)
    }

    /// Draws the field OVER `image` in `frame` (points) at `scale`: the box, the focus ring inside
    /// its edge when focused, the selection's highlight, the text (or the placeholder), the preedit
    /// underlined, and the caret when it is on at the clock's time.
    public func draw(into image: OpaquePointer, frame: Rect, scale s: Double) {
        if frame.size != size { size = frame.size }
        Draw.fillRoundedRect(image, x: frame.minX * s, y: frame.minY * s, width: frame.width * s, height: frame.height * s,
                             radius: TextField.cornerRadius * s, color: TextField.fillColor)
        if isFocused {
            Draw.fillRoundedRect(image, x: frame.minX * s, y: frame.minY * s, width: frame.width * s, height: frame.height * s,
                                 radius: TextField.cornerRadius * s, color: TextField.focusRingColor,
                                 ring: (inset: 2 * s, radius: max(0, TextField.cornerRadius - 2) * s))
        }
        let caretOn = caretOn(at: clock())
        drawnCaretOn = caretOn
        needsDraw = false
        guard let l = line(scale: s, updateScroll: true) else { return }
        let dx = px(frame.minX, s), dy = px(frame.minY, s)
        let left = dx + l.areaLeft, right = dx + l.areaRight
        func box(_ x0: Int, _ x1: Int, _ y: Int, _ h: Int, _ color: Color) {
            let a = max(left, min(x0, x1) + dx), b = min(right, max(x0, x1) + dx)
            guard b > a else { return }
            fillBox(image, x: a, y: y + dy, width: b - a, height: h, color: color)
        }
        // Selection (or a preedit's cursor range): each character's extent highlighted.
        let sel = model.selection
        var highlighted: Range<Int>? = nil
        if model.hasSelection && l.preedit.isEmpty {
            let lo = model.characterIndex(ofByte: sel.lowerBound), hi = model.characterIndex(ofByte: sel.upperBound)
            highlighted = lo..<hi
        } else if let c = l.preeditCursor, !c.isEmpty {
            highlighted = c
        }
        if let h = highlighted {
            for i in h where i < l.layout.extents.count {
                let e = l.layout.extents[i]
                box(l.originX + e.lowerBound, l.originX + e.upperBound, l.top, l.lineHeight, TextField.selectionColor)
            }
        }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(left), Int32(dy), UInt32(max(0, right - left)), UInt32(max(0, px(frame.height, s))))
        pixman_image_set_clip_region32(image, &region)
        if l.shown.isEmpty {
            if !placeholder.isEmpty {
                let w = l.font.width(of: placeholder)
                let x = ParagraphDirection(of: placeholder) == .rightToLeft ? l.areaRight - w : l.areaLeft
                l.font.draw(placeholder, into: image, x: x + dx, baseline: l.baseline + dy, color: TextStyle.secondaryColor)
            }
        } else {
            l.editable.draw(into: image, x: l.originX + dx, baseline: l.baseline + dy, color: style.color)
        }
        pixman_image_set_clip_region32(image, nil)
        pixman_region32_fini(&region)
        let thickness = max(1, px(1, s))
        if !l.preedit.isEmpty {
            var x0 = Int.max, x1 = Int.min
            for i in l.preedit where i < l.layout.extents.count {
                x0 = min(x0, l.layout.extents[i].lowerBound)
                x1 = max(x1, l.layout.extents[i].upperBound)
            }
            if x0 < x1 { box(l.originX + x0, l.originX + x1, l.baseline + max(1, l.font.descent / 2), thickness, style.color) }
        }
        if isFocused, caretOn, let x = l.caretX {
            box(x, x + max(1, px(TextField.caretWidth, s)), l.top, l.lineHeight, style.color)
        }
    }

    public func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let p = Draw.pixelSize(of: image)
        Draw.fill(image, width: p.width, height: p.height, color: ResponsePanel.background)
        draw(into: image, frame: Rect(size: size), scale: scale)
    }
}
