/*
 * viewer.js: the 3D viewer of cubegen's pages (page.html), plain WebGL 1.
 * It draws the pieces of the JSON in #cubegen-data with Lambert light,
 * turns a camera around them and, on a solution page, steps through the
 * assembly. The state is kept in the URL fragment
 * (#step=S&explode=E&view=YAW,PITCH,DIST), so a link shows the same
 * picture. After each change it reports on <body> what it drew:
 * data-drawn, -pieces, -triangles, -step, -ids and -centres (per piece a
 * pixel where it shows in its own colour, found by an ID pass).
 */
(function () {
  'use strict';

  var FOVY = 30 * Math.PI / 180;
  var HOME_YAW = 35, HOME_PITCH = 25;  /* degrees: from front-right-above */
  var SLIDE_MS = 600, PLAY_MS = 1200, PICK_MS = 80, HASH_MS = 250;

  var body = document.body, canvas = document.getElementById('view');
  var data, steps, gl, u = {};
  var pieces = [];   /* first, count (vertices), centre, box, dir */
  var all = {};      /* the assembly: centre, radius, push (explode mm) */
  var view;          /* step, explode, yaw, pitch, dist, custom */
  var slide = null;  /* a step's pieces sliding in: start, from (target) */
  var target;        /* the camera's target as last drawn */
  var queued = false, timers = {}, pickFb, ui = {};

  /* ---- vectors and matrices (column-major, as GL wants them) ---- */

  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function add(a, b, k) { return [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function len(a) { return Math.sqrt(dot(a, a)); }
  function norm(a) { var l = len(a); return l > 0 ? add([0, 0, 0], a, 1 / l) : [0, 0, 0]; }
  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }
  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }

  function mul(a, b) {
    var m = new Float32Array(16);
    for (var i = 0; i < 16; i++)
      for (var k = 0; k < 4; k++)
        m[i] += a[k * 4 + i % 4] * b[(i >> 2) * 4 + k];
    return m;
  }

  /* ---- the pieces ---- */

  function growBox(b, p) {
    for (var a = 0; a < 3; a++) {
      b.min[a] = Math.min(b.min[a], p[a]);
      b.max[a] = Math.max(b.max[a], p[a]);
    }
    return b;
  }
  function newBox() { return {min: [1 / 0, 1 / 0, 1 / 0], max: [-1 / 0, -1 / 0, -1 / 0]}; }
  function mid(b) { return add(b.min, sub(b.max, b.min), 0.5); }

  /* WebGL 1 has no flat shading, so every triangle gets three vertices of
   * its own, with its normal. A colour's alpha is 1 where a triangle has
   * the piece's own colour (the ID pass reports only those). */
  function buildGeometry() {
    var total = 0, at = 0;
    data.pieces.forEach(function (p) { total += p.triangles.length; });
    var pos = new Float32Array(total * 3), nrm = new Float32Array(total * 3);
    var col = new Uint8Array(total * 4);
    data.pieces.forEach(function (p, i) {
      var v = p.vertices, t = p.triangles, box = newBox();
      var own = [0, 1, 2].map(function (a) { return clamp(p.colour[a] | 0, 0, 255); });
      var piece = {first: at, count: t.length};
      for (var k = 0; k < t.length; k += 3) {
        var q = [0, 1, 2].map(function (j) {
          if (!(t[k + j] >= 0 && 3 * t[k + j] + 2 < v.length))
            throw new Error('piece ' + (i + 1) + ': a bad triangle');
          return v.slice(3 * t[k + j], 3 * t[k + j] + 3);
        });
        var n = norm(cross(sub(q[1], q[0]), sub(q[2], q[0])));
        var c = p.tricolours ? p.tricolours[k / 3] : -1;
        var rgb = c >= 0 ? [c >> 16 & 255, c >> 8 & 255, c & 255] : own;
        var mine = rgb.join() === own.join() ? 255 : 0;
        q.forEach(function (xyz) {
          growBox(box, xyz);
          pos.set(xyz, 3 * at);
          nrm.set(n, 3 * at);
          col.set(rgb.concat(mine), 4 * at++);
        });
      }
      piece.box = box;
      piece.centre = mid(box);
      pieces.push(piece);
    });
    attribute('aPos', pos, 3, gl.FLOAT);
    attribute('aNormal', nrm, 3, gl.FLOAT);
    attribute('aColour', col, 4, gl.UNSIGNED_BYTE);
    measure(pos);
  }

  /* The assembly's centre and bounding sphere; each piece explodes along
   * the direction from that centre to its own centre. */
  function measure(pos) {
    var box = newBox();
    pieces.forEach(function (p) { growBox(growBox(box, p.box.min), p.box.max); });
    all.centre = mid(box);
    all.radius = 1;
    for (var i = 0; i < pos.length; i += 3)
      all.radius = Math.max(all.radius, len(sub([pos[i], pos[i + 1], pos[i + 2]], all.centre)));
    all.push = 0.5 * Math.max.apply(null, sub(box.max, box.min));
    all.reach = all.radius;  /* how far from the centre anything goes */
    pieces.forEach(function (p) { p.dir = norm(sub(p.centre, all.centre)); });
    steps.forEach(function (s) {
      var most = 0;
      for (var i in s.at)
        most = Math.max(most, len(s.at[i]));
      all.reach = Math.max(all.reach, all.radius + most + len(s.from));
    });
  }

  /* A solution page's steps with bad indexes dropped, or [] (pieces page). */
  function readSteps() {
    if (data.page !== 'solution' || !Array.isArray(data.steps))
      return [];
    function ok(i) { return i === (i | 0) && i >= 0 && i < data.pieces.length; }
    return data.steps.map(function (s) {
      var show = (s.show || []).filter(ok).sort(function (a, b) { return a - b; });
      var from = (s.from || []).map(Number), at = {};
      /* [i, x, y, z]: piece i left away from where it is drawn (a slide) */
      (Array.isArray(s.at) ? s.at : []).forEach(function (e) {
        var v = Array.isArray(e) ? e.map(Number) : [];
        if (v.length === 4 && ok(v[0]) && v.every(isFinite))
          at[v[0]] = v.slice(1);
      });
      return {text: String(s.text || ''),
              show: show.filter(function (v, k) { return v !== show[k - 1]; }),
              moving: (s.moving || []).filter(function (i) { return show.indexOf(i) >= 0; }),
              from: from.length === 3 && from.every(isFinite) ? from : [0, 0, 0], at: at};
    });
  }

  /* ---- WebGL ---- */

  var VERTEX_SHADER =
    'attribute vec3 aPos, aNormal; attribute vec4 aColour;\n' +
    'uniform mat4 uMvp; uniform vec3 uOffset;\n' +
    'varying vec3 vNormal; varying vec4 vColour;\n' +
    'void main() {\n' +
    '  vNormal = aNormal; vColour = aColour;\n' +
    '  gl_Position = uMvp * vec4(aPos + uOffset, 1.0);\n' +
    '}\n';

  /* Lambert with a white light, which only scales the colour; or, for the
   * ID pass, the piece's id where it shows its own colour, else 0. */
  var FRAGMENT_SHADER =
    'precision mediump float;\n' +
    'uniform vec3 uLight, uId; uniform bool uPick;\n' +
    'varying vec3 vNormal; varying vec4 vColour;\n' +
    'void main() {\n' +
    '  float d = max(dot(normalize(vNormal), uLight), 0.0);\n' +
    '  gl_FragColor = uPick ? vec4(uId * vColour.a, 1.0)\n' +
    '                       : vec4(vColour.rgb * (0.35 + 0.65 * d), 1.0);\n' +
    '}\n';

  function setupGl() {
    gl = canvas.getContext('webgl');
    if (!gl)
      return false;
    var prog = gl.createProgram();
    [[gl.VERTEX_SHADER, VERTEX_SHADER], [gl.FRAGMENT_SHADER, FRAGMENT_SHADER]].forEach(function (s) {
      var sh = gl.createShader(s[0]);
      gl.shaderSource(sh, s[1]);
      gl.compileShader(sh);
      gl.attachShader(prog, sh);
    });
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS))
      throw new Error(gl.getProgramInfoLog(prog));
    gl.useProgram(prog);
    u.prog = prog;
    ['uMvp', 'uOffset', 'uLight', 'uId', 'uPick'].forEach(function (n) {
      u[n] = gl.getUniformLocation(prog, n);
    });
    gl.enable(gl.DEPTH_TEST);
    gl.enable(gl.CULL_FACE);  /* triangles are counter-clockwise outside */
    return true;
  }

  function attribute(name, array, size, type) {
    var at = gl.getAttribLocation(u.prog, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, array, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(at);
    gl.vertexAttribPointer(at, size, type, type === gl.UNSIGNED_BYTE, 0, 0);
  }

  /* ---- what is drawn where ---- */

  function shown() {
    return steps.length ? steps[view.step].show : pieces.map(function (p, i) { return i; });
  }

  /* The centre of the shown pieces' bounding box, as put together. */
  /* Where the step leaves piece i, from its place: a burr's slides, a
   * part put together aside (the step's "at"). */
  function away(i) {
    var s = steps[view.step];
    return s && s.at[i] ? s.at[i] : [0, 0, 0];
  }

  /* The middle of the pieces shown, where the step leaves them. */
  function goal() {
    var box = newBox();
    shown().forEach(function (i) {
      growBox(growBox(box, add(pieces[i].box.min, away(i), 1)), add(pieces[i].box.max, away(i), 1));
    });
    return isFinite(box.min[0]) ? mid(box) : all.centre;
  }

  /* How far from 'c' the pieces shown reach: the assembly's sphere, or
   * when the step leaves pieces away from their places, each piece's. */
  function spread(c) {
    var r = all.radius + len(sub(c, all.centre)), apart = false, most = 0;
    shown().forEach(function (i) {
      var b = pieces[i].box;
      apart = apart || len(away(i)) > 0;
      most = Math.max(most, len(sub(add(mid(b), away(i), 1), c)) + len(sub(b.max, b.min)) / 2);
    });
    return apart ? most : r;
  }

  /* How far along the running slide, 0..1 eased; 1 with none. */
  function progress(now) {
    if (!slide)
      return 1;
    if (slide.start === null)
      slide.start = now;
    var t = clamp((now - slide.start) / SLIDE_MS, 0, 1);
    return t * t * (3 - 2 * t);
  }

  function offset(i, t) {
    var o = add(away(i), pieces[i].dir, view.explode * all.push);
    return slide && steps[view.step].moving.indexOf(i) >= 0 ? add(o, steps[view.step].from, 1 - t) : o;
  }

  /* The room at the bottom that the controls take, in CSS pixels: the
   * picture is centred in the rest of the window. */
  function controlsRoom(h) {
    var r = ui.bar.getBoundingClientRect();
    return clamp(h - r.top, 0, h / 3);
  }

  /* The camera for window size w x h: the combined matrix, the light and
   * its distance (by default, that which fits all pieces' bounding sphere,
   * exploded as now, around the target). */
  function camera(w, h) {
    var room = controlsRoom(h), aspect = w / (h - room);
    var half = Math.min(FOVY / 2, Math.atan(Math.tan(FOVY / 2) * aspect));
    var r = spread(target) + view.explode * all.push;
    var fit = 1.1 * r / Math.sin(half);
    var dist = view.custom ? view.dist : fit;
    var y = view.yaw * Math.PI / 180, p = view.pitch * Math.PI / 180;
    var back = [Math.cos(p) * Math.sin(y), -Math.cos(p) * Math.cos(y), Math.sin(p)];
    var right = [Math.cos(y), Math.sin(y), 0], up = cross(right, add([0, 0, 0], back, -1));
    var eye = add(target, back, dist);
    var reach = all.reach + len(sub(target, all.centre)) + view.explode * all.push;
    var near = Math.max(dist - reach, dist / 50), far = dist + reach;
    /* perspective, its centre moved up by half the controls' room */
    var f = 1 / Math.tan(FOVY / 2), d = near - far;
    var proj = [f * (h - room) / w, 0, 0, 0, 0, f * (h - room) / h, 0, 0,
                0, -room / h, (far + near) / d, -1, 0, 0, 2 * far * near / d, 0];
    var s = right;  /* the view's axes: right, up, back */
    var look = [s[0], up[0], back[0], 0, s[1], up[1], back[1], 0, s[2], up[2], back[2], 0,
                -dot(s, eye), -dot(up, eye), -dot(back, eye), 1];
    return {mvp: mul(proj, look), dist: dist, fit: fit,
            light: norm(add(add(back, up, 0.3), right, -0.2))};  /* above-left */
  }

  function draw(cam, t, pick) {
    gl.uniformMatrix4fv(u.uMvp, false, cam.mvp);
    gl.uniform3fv(u.uLight, cam.light);
    gl.uniform1i(u.uPick, pick ? 1 : 0);
    shown().forEach(function (i) {
      gl.uniform3f(u.uId, ((i + 1) & 255) / 255, ((i + 1) >> 8) / 255, 0);  /* 0: none */
      gl.uniform3fv(u.uOffset, offset(i, t));
      gl.drawArrays(gl.TRIANGLES, pieces[i].first, pieces[i].count);
    });
  }

  function cssSize() {
    return [Math.max(1, canvas.clientWidth), Math.max(1, canvas.clientHeight)];
  }

  function frame(now) {
    queued = false;
    var css = cssSize(), dpr = window.devicePixelRatio || 1;
    var w = Math.round(css[0] * dpr), h = Math.round(css[1] * dpr), t = progress(now);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    target = slide ? add(slide.from, sub(goal(), slide.from), t) : goal();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, w, h);
    gl.clearColor(0, 0, 0, 0);  /* the page's background shows through */
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    draw(camera(css[0], css[1]), t, false);
    clearTimeout(timers.pick);
    if (t < 1)
      redraw();
    else {
      slide = null;
      timers.pick = setTimeout(report, PICK_MS);  /* once the picture settles */
    }
  }

  function redraw() {
    if (!queued) {
      queued = true;
      requestAnimationFrame(frame);
    }
  }

  /* ---- the report ---- */

  /* The ID pass at CSS resolution: per pixel, top row first, the index
   * of the piece shown there in its own colour, or -1 (none, or under
   * the title or the controls). */
  function idImage(w, h) {
    if (!pickFb) {
      pickFb = {fb: gl.createFramebuffer(), tex: gl.createTexture(), depth: gl.createRenderbuffer()};
      gl.bindFramebuffer(gl.FRAMEBUFFER, pickFb.fb);
      gl.bindTexture(gl.TEXTURE_2D, pickFb.tex);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, pickFb.tex, 0);
      gl.bindRenderbuffer(gl.RENDERBUFFER, pickFb.depth);
      gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, pickFb.depth);
    }
    if (pickFb.w !== w || pickFb.h !== h) {
      gl.bindTexture(gl.TEXTURE_2D, pickFb.tex);
      gl.bindRenderbuffer(gl.RENDERBUFFER, pickFb.depth);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT16, w, h);
      pickFb.w = w;
      pickFb.h = h;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickFb.fb);
    gl.viewport(0, 0, w, h);
    gl.clearColor(0, 0, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    draw(camera(w, h), 1, true);
    var px = new Uint8Array(4 * w * h), ids = new Int32Array(w * h);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    for (var i = 0; i < w * h; i++) {
      var k = 4 * ((h - 1 - Math.floor(i / w)) * w + i % w);  /* GL's rows run up */
      ids[i] = px[k] + 256 * px[k + 1] - 1;
    }
    document.querySelectorAll('.overlay').forEach(function (el) {
      var r = el.getBoundingClientRect();
      for (var y = Math.max(0, Math.floor(r.top)); y < Math.min(h, r.bottom); y++)
        for (var x = Math.max(0, Math.floor(r.left)); x < Math.min(w, r.right); x++)
          ids[y * w + x] = -1;
    });
    return ids;
  }

  /* Per shown piece, "x,y": its visible pixel nearest the centroid of its
   * visible pixels, preferring those 2 px inside its area (never an
   * antialiased edge); "-1,-1" if it shows nowhere. */
  function centres(ids, w, h) {
    var sum = {}, best = {}, i, id;
    for (i = 0; i < w * h; i++)
      if ((id = ids[i]) >= 0) {
        sum[id] = sum[id] || [0, 0, 0];
        sum[id][0] += i % w;
        sum[id][1] += Math.floor(i / w);
        sum[id][2]++;
      }
    for (i = 0; i < w * h; i++) {
      if ((id = ids[i]) < 0)
        continue;
      var x = i % w, y = Math.floor(i / w), s = sum[id];
      var inner = x >= 2 && y >= 2 && x < w - 2 && y < h - 2 && ids[i - 2] === id &&
        ids[i + 2] === id && ids[i - 2 * w] === id && ids[i + 2 * w] === id;
      var score = (inner ? 0 : 1e12) + Math.pow(x - s[0] / s[2], 2) + Math.pow(y - s[1] / s[2], 2);
      if (!best[id] || score < best[id].score)
        best[id] = {score: score, at: x + ',' + y};
    }
    return shown().map(function (i) { return best[i] ? best[i].at : '-1,-1'; });
  }

  function report() {
    var css = cssSize(), tris = 0;
    var at = centres(idImage(css[0], css[1]), css[0], css[1]);
    shown().forEach(function (i) { tris += pieces[i].count / 3; });
    body.setAttribute('data-pieces', shown().length);
    body.setAttribute('data-triangles', tris);
    body.setAttribute('data-step', steps.length ? view.step : -1);
    body.setAttribute('data-ids', shown().join(','));
    body.setAttribute('data-centres', at.join(';'));
    body.setAttribute('data-drawn', '1');
  }

  /* ---- the URL fragment ---- */

  /* #step=S&explode=E&view=YAW,PITCH,DIST: what is valid of it, over the
   * defaults. */
  function readHash() {
    /* with no step asked for, the last: the puzzle assembled */
    view = {step: Math.max(steps.length - 1, 0), explode: 0, yaw: HOME_YAW,
            pitch: HOME_PITCH, dist: 0, custom: false};
    location.hash.slice(1).split('&').forEach(function (kv) {
      var key = kv.split('=')[0], val = kv.slice(key.length + 1);
      var v = val.split(',').map(function (s) { return s ? Number(s) : NaN; });
      if (key === 'step' && /^\d+$/.test(val) && v[0] < steps.length)
        view.step = v[0];
      else if (key === 'explode' && steps.length && v.length === 1 && isFinite(v[0]))
        view.explode = clamp(v[0], 0, 1);
      else if (key === 'view' && v.length === 3 && v.every(isFinite) && v[2] > 0)
        view = {step: view.step, explode: view.explode, yaw: v[0],
                pitch: clamp(v[1], -89, 89), dist: v[2], custom: true};
    });
  }

  function writeHash() {
    clearTimeout(timers.hash);
    var parts = [];
    if (steps.length)
      parts.push('step=' + view.step);
    if (view.explode > 0)
      parts.push('explode=' + +view.explode.toFixed(2));
    if (view.custom)
      parts.push('view=' + [(view.yaw % 360 + 360) % 360, view.pitch, view.dist].map(function (v) {
        return +v.toFixed(1);
      }).join());
    history.replaceState(null, '', location.pathname + location.search +
                         (parts.length ? '#' + parts.join('&') : ''));
  }

  function writeHashSoon() {
    clearTimeout(timers.hash);
    timers.hash = setTimeout(writeHash, HASH_MS);
  }

  function applyHash() {
    readHash();
    slide = null;
    target = goal();
    if (steps.length) {
      play(false);
      showStep();
    }
    /* drawn at once, not at the next animation frame: a headless browser
     * with virtual time may run out of it before that frame comes */
    frame(performance.now());
  }

  /* ---- steps and play ---- */

  function goStep(s, animate) {
    view.step = clamp(s, 0, steps.length - 1);
    slide = animate ? {start: null, from: target} : null;
    showStep();
    writeHash();
    redraw();
  }

  function showStep() {
    ui.text.textContent = steps[view.step].text;
    ui.count.textContent = 'step ' + (view.step + 1) + ' of ' + steps.length;
    ui.prev.disabled = view.step === 0;
    ui.next.disabled = view.step === steps.length - 1;
    ui.explode.value = view.explode;
  }

  /* Play shows the next step every PLAY_MS and stops at the last. */
  function play(on) {
    clearTimeout(timers.play);
    timers.play = on ? setTimeout(function () {
      goStep(view.step + 1, true);
      play(view.step < steps.length - 1);
    }, PLAY_MS) : 0;
    ui.play.textContent = on ? 'pause' : 'play';
    ui.play.setAttribute('aria-label', on ? 'pause' : 'play');
  }

  /* ---- controls ---- */

  function element(tag, attrs, text) {
    var el = document.createElement(tag);
    for (var k in attrs)
      el.setAttribute(k, attrs[k]);
    el.textContent = text || '';
    return el;
  }

  function button(label, text, onClick) {
    var b = element('button', {type: 'button', 'aria-label': label}, text);
    b.addEventListener('click', onClick);
    return b;
  }

  /* The solution page's controls, before "reset view". */
  function stepControls() {
    ui.text = element('p', {id: 'step-text', 'aria-live': 'polite'});
    ui.prev = button('previous step', 'previous', function () { play(false); goStep(view.step - 1, false); });
    ui.play = button('play', 'play', function () {
      var on = !timers.play;
      if (on)
        goStep(view.step === steps.length - 1 ? 0 : view.step + 1, true);
      play(on && view.step < steps.length - 1);
    });
    ui.next = button('next step', 'next', function () { play(false); goStep(view.step + 1, true); });
    ui.count = element('span', {});
    ui.explode = element('input', {type: 'range', min: 0, max: 1, step: 0.01, 'aria-label': 'explode'});
    ui.explode.addEventListener('input', function () {
      view.explode = clamp(Number(ui.explode.value), 0, 1);
      writeHashSoon();
      redraw();
    });
    var label = element('label', {}, 'explode ');
    label.appendChild(ui.explode);
    [ui.text, ui.prev, ui.play, ui.next, ui.count, label].forEach(function (el) {
      ui.bar.insertBefore(el, ui.reset);
    });
    document.addEventListener('keydown', function (e) {
      var b = {ArrowLeft: ui.prev, ArrowRight: ui.next}[e.key];
      if (b && !b.disabled && e.target !== ui.explode)
        b.click();
    });
  }

  /* A turn or a zoom: the view is the user's from now on. */
  function changeView(dyaw, dpitch, zoom) {
    var cam = camera(cssSize()[0], cssSize()[1]);
    view.dist = clamp(cam.dist * zoom, cam.fit / 10, cam.fit * 10);
    view.yaw += dyaw;
    view.pitch = clamp(view.pitch + dpitch, -89, 89);
    view.custom = true;
    writeHashSoon();
    redraw();
  }

  /* Mouse and touch alike: one pointer turns, two pinch to zoom. */
  function pointers() {
    var down = {};
    canvas.addEventListener('pointerdown', function (e) {
      down[e.pointerId] = [e.clientX, e.clientY];
      try {
        canvas.setPointerCapture(e.pointerId);
      } catch (err) {
        /* a pointer the browser does not track (a scripted event) */
      }
    });
    canvas.addEventListener('pointermove', function (e) {
      var me = down[e.pointerId], ids = Object.keys(down), x = e.clientX, y = e.clientY;
      if (me && ids.length === 1)
        changeView(-0.4 * (x - me[0]), 0.4 * (y - me[1]), 1);
      if (me && ids.length === 2) {
        var o = down[ids[ids[0] === String(e.pointerId) ? 1 : 0]];
        var before = Math.hypot(me[0] - o[0], me[1] - o[1]), after = Math.hypot(x - o[0], y - o[1]);
        if (before > 0 && after > 0)
          changeView(0, 0, before / after);
      }
      if (me)
        down[e.pointerId] = [x, y];
    });
    ['pointerup', 'pointercancel'].forEach(function (type) {
      canvas.addEventListener(type, function (e) { delete down[e.pointerId]; });
    });
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      var px = e.deltaY * (e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1);
      changeView(0, 0, Math.exp(clamp(px, -300, 300) * 0.0015));
    }, {passive: false});
  }

  /* ---- start ---- */

  function message(text) {
    var m = document.getElementById('message');
    m.textContent = text;
    m.hidden = false;
    document.getElementById('controls').hidden = true;
  }

  function start() {
    try {
      data = JSON.parse(document.getElementById('cubegen-data').textContent);
      steps = readSteps();
      if (!setupGl())
        return message('This viewer needs WebGL, which this browser does not offer.');
      buildGeometry();
    } catch (e) {
      return message('The pieces cannot be shown: the page\'s data is damaged.');
    }
    ui.bar = document.getElementById('controls');
    ui.reset = document.getElementById('reset');
    ui.reset.addEventListener('click', function () {
      view.yaw = HOME_YAW;
      view.pitch = HOME_PITCH;
      view.custom = false;
      writeHash();
      redraw();
    });
    if (steps.length)
      stepControls();
    pointers();
    window.addEventListener('resize', redraw);
    window.addEventListener('hashchange', applyHash);
    applyHash();
  }

  start();
})();
