"""Render the pages' app icons, src/stich/web/ui/static/icon-192.png and icon-512.png (the web app manifest's):
icon.svg's drawing, a white card with a red heart, on the felt.  Run from the repository root with Pillow
installed: ``python deploy/make_icons.py``; the PNG files are committed (Pillow is no dependency of stich)."""

import math

from PIL import Image, ImageDraw


def heart(scale, ox, oy):
    pts = []
    def bez(p0, p1, p2, p3, n=40):
        for i in range(n + 1):
            t = i / n
            x = (1-t)**3*p0[0] + 3*(1-t)**2*t*p1[0] + 3*(1-t)*t**2*p2[0] + t**3*p3[0]
            y = (1-t)**3*p0[1] + 3*(1-t)**2*t*p1[1] + 3*(1-t)*t**2*p2[1] + t**3*p3[1]
            pts.append((x, y))
    def arc(a, b, n=40):
        cx, cy = (a[0]+b[0])/2, (a[1]+b[1])/2
        r = math.dist(a, b) / 2
        t0 = math.atan2(a[1]-cy, a[0]-cx)
        for i in range(n + 1):
            t = t0 + math.pi * i / n   # clockwise on screen (y down): over the top
            pts.append((cx + r*math.cos(t), cy + r*math.sin(t)))
    bez((50, 78), (30, 62), (26, 52), (26, 42))
    arc((26, 42), (50, 36))
    arc((50, 36), (74, 42))
    bez((74, 42), (74, 52), (70, 62), (50, 78))
    return [(ox + x*scale, oy + y*scale) for x, y in pts]

def icon(size, path):
    k = 4
    S = size * k
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=int(S * 0.18), fill="#1f6b46")
    # the card of icon.svg (a 100x100 drawing), at 80% of the icon, centred
    scale = S * 0.8 / 100
    ox = oy = S * 0.1
    d.rounded_rectangle((ox + 18*scale, oy + 8*scale, ox + 82*scale, oy + 92*scale), radius=10*scale,
                        fill="#ffffff", outline="#223344", width=int(6*scale))
    d.polygon(heart(scale, ox, oy), fill="#c0262d")
    img.resize((size, size), Image.LANCZOS).save(path, optimize=True)

for n in (192, 512):
    icon(n, f"src/stich/web/ui/static/icon-{n}.png")
