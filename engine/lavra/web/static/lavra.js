/* lavra: masks, live completeness report and the errors at each field, add/remove rows,
   the applicant's form kept in this browser (localStorage; never files nor passwords).
   The pages work without it. */
(function () {
  "use strict";

  function digits(v) { return v.replace(/\D/g, ""); }
  function shape(value, pattern) {
    /* pattern: 9 = character from value, other characters are literal separators */
    var out = "", i = 0;
    for (var p = 0; p < pattern.length && i < value.length; p++) {
      if (pattern[p] === "9") { out += value[i++]; } else { out += pattern[p]; }
    }
    return out;
  }
  var masks = {
    cpf: function (v) { return shape(digits(v).slice(0, 11), "999.999.999-99"); },
    cnpj: function (v) {
      var raw = v.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 14);
      return shape(raw, "99.999.999/9999-99");
    },
    cep: function (v) { return shape(digits(v).slice(0, 8), "99999-999"); },
    data: function (v) { return shape(digits(v).slice(0, 8), "99/99/9999"); },
    placa: function (v) { return v.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 7); }
  };
  function applyMask(input) {
    var mask = masks[input.getAttribute("data-mascara")];
    if (!mask) { return; }
    var masked = mask(input.value);
    if (masked !== input.value) { input.value = masked; }
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(fn, ms);
    };
  }

  /* ---- the applicant's form kept in this browser, by form id, until filed or cleared */
  var STORE = "lavra:requerimento:";
  function store() {
    try { return window.localStorage || null; } catch (e) { return null; }
  }
  var SKIPPED = /^(file|password|hidden|submit|button|reset|image)$/;
  function typedPairs(form) {
    var out = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      var type = (el.type || "").toLowerCase();
      if (!el.name || el.disabled || el.name.charAt(0) === "_" || SKIPPED.test(type)) { return; }
      if ((type === "checkbox" || type === "radio") && !el.checked) { return; }
      out.push([el.name, el.value]);
    });
    return out;
  }
  function save(form) {
    var key = form.getAttribute("data-guardar"), s = store();
    if (!key || !s) { return; }
    try { s.setItem(STORE + key, JSON.stringify(typedPairs(form))); } catch (e) { /* full */ }
  }
  function named(form, name) {
    var quoted = window.CSS && CSS.escape ? CSS.escape(name) : name.replace(/"/g, "");
    return form.querySelectorAll('[name="' + quoted + '"]');
  }
  function restore(form) {
    var key = form.getAttribute("data-guardar"), s = store();
    if (!key || !s || form.getAttribute("data-restaurar") !== "sim") { return false; }
    var pairs;
    try { pairs = JSON.parse(s.getItem(STORE + key) || "[]"); } catch (e) { return false; }
    if (!Array.isArray(pairs) || !pairs.length) { return false; }
    pairs.forEach(function (pair) {
      if (!Array.isArray(pair) || typeof pair[0] !== "string") { return; }
      var name = pair[0], value = String(pair[1]);
      var fields = named(form, name);
      var array = name.split("/").slice(0, -2).join("/");
      for (var tries = 0; !fields.length && array && tries < 50; tries++) {
        if (!addRow(form, array, false)) { break; }
        fields = named(form, name);
      }
      Array.prototype.forEach.call(fields, function (el) {
        var type = (el.type || "").toLowerCase();
        if (SKIPPED.test(type)) { return; }
        if (type === "checkbox" || type === "radio") {
          if (el.value === value) { el.checked = true; }
        } else {
          el.value = value;
          if (el.hasAttribute("data-mascara")) { applyMask(el); }
        }
      });
    });
    return true;
  }
  function forget(key) {
    var s = store();
    if (s && key) { try { s.removeItem(STORE + key); } catch (e) { /* nothing kept */ } }
  }

  /* ---- the report's messages at each field the person has left (or that shows one) */
  function fieldOf(el) {
    return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.id ? el : null;
  }
  function describedBy(el, id, on) {
    var ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (x) {
      return x && x !== id;
    });
    if (on) { ids.push(id); }
    if (ids.length) { el.setAttribute("aria-describedby", ids.join(" ")); }
    else { el.removeAttribute("aria-describedby"); }
  }
  function markField(el, messages) {
    var box = el.closest ? el.closest(".campo") : null;
    var id = el.id + "-erros";
    var list = document.getElementById(id);
    if (messages && messages.length) {
      if (!list) {
        list = document.createElement("ul");
        list.className = "erros-campo";
        list.id = id;
        var help = document.getElementById(el.id + "-ajuda");
        var parent = box || el.parentNode;
        parent.insertBefore(list, help && help.parentNode === parent ? help.nextSibling : null);
      }
      list.textContent = "";
      messages.forEach(function (m) {
        var li = document.createElement("li");
        li.textContent = String(m);
        list.appendChild(li);
      });
      el.setAttribute("aria-invalid", "true");
      describedBy(el, id, true);
      if (box) { box.classList.add("com-erro"); }
    } else {
      if (list) { list.parentNode.removeChild(list); }
      el.removeAttribute("aria-invalid");
      describedBy(el, id, false);
      if (box) { box.classList.remove("com-erro"); }
    }
  }

  function setup(form) {
    var target = document.getElementById("relatorio");
    var documents = document.getElementById("documentos-lista");
    var url = form.getAttribute("data-relatorio");
    var pending = null;
    var left = {};  /* ids of the fields the person has left, or that came with an error */
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid="true"]'), function (el) {
      if (fieldOf(el)) { left[el.id] = true; }
    });
    function showErrors(byField) {
      Object.keys(left).forEach(function (id) {
        var el = fieldOf(document.getElementById(id));
        if (el && form.contains(el)) { markField(el, byField[id] || []); }
      });
    }
    function refresh() {
      if (!target || !url || !window.fetch) { return; }
      if (pending) { pending.abort(); }
      pending = new AbortController();
      fetch(url, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "Accept": "application/json" }, signal: pending.signal
      }).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (json) {
        if (json && typeof json.html === "string") {
          target.innerHTML = json.html; /* server-rendered, escaped by the template engine */
          form.setAttribute("data-completo", json.complete ? "sim" : "nao");
          form.setAttribute("data-pendencias", String(json.pending));
          if (documents && typeof json.documentos === "string") {
            documents.innerHTML = json.documentos; /* server-rendered, escaped */
          }
          showErrors(json.campos && typeof json.campos === "object" ? json.campos : {});
        }
      }).catch(function () { /* offline or aborted: the server-side report still works */ });
    }
    var later = debounce(refresh, 350);
    form.addEventListener("input", function (event) {
      if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-mascara")) {
        applyMask(event.target);
      }
      save(form);
      later();
    });
    form.addEventListener("change", function () { save(form); later(); });
    form.addEventListener("focusout", function (event) {
      var el = fieldOf(event.target);
      if (el && !left[el.id]) { left[el.id] = true; later(); }
    });
    form.addEventListener("keydown", function (event) {
      /* Enter in a field would send the page and lose the person's place: it checks
         the field instead (the buttons still send the form) */
      var el = event.target;
      if (event.key !== "Enter" || !el || el.tagName !== "INPUT") { return; }
      if (/^(submit|button|reset|image|file)$/.test((el.type || "").toLowerCase())) { return; }
      event.preventDefault();
      if (el.id) { left[el.id] = true; }
      later();
    });
    form.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button") : null;
      if (!button) { return; }
      if (button.hasAttribute("data-adicionar")) {
        event.preventDefault();
        addRow(form, button.getAttribute("data-adicionar"), true);
        save(form);
        later();
      } else if (button.hasAttribute("data-remover")) {
        event.preventDefault();
        var row = button.closest("fieldset.linha");
        if (row) { row.parentNode.removeChild(row); }
        save(form);
        later();
      } else if (button.hasAttribute("data-limpar")) {
        event.preventDefault();
        forget(form.getAttribute("data-guardar"));
        window.location.href = form.getAttribute("action");
      }
    });
    Array.prototype.forEach.call(form.querySelectorAll("[data-mascara]"), applyMask);
    var clear = form.querySelector("[data-limpar]");
    if (clear && store()) { clear.hidden = false; }
    if (restore(form)) { refresh(); } else { save(form); }
  }

  function addRow(form, name, focus) {
    var section = null, template = null;
    Array.prototype.forEach.call(form.querySelectorAll("[data-linhas]"), function (s) {
      if (s.getAttribute("data-linhas") === name) { section = s; }
    });
    if (!section) { return false; }
    Array.prototype.forEach.call(section.querySelectorAll("template[data-modelo]"), function (t) {
      if (t.getAttribute("data-modelo") === name) { template = t; }
    });
    if (!template) { return false; }
    var list = section.querySelector(".lista-linhas");
    var rows = list.querySelectorAll(":scope > fieldset.linha");
    var max = parseInt(section.getAttribute("data-maximo") || "500", 10);
    if (rows.length >= max) { return false; }
    var next = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var parts = (row.getAttribute("data-linha") || "").split("/");
      var index = parseInt(parts[parts.length - 1], 10);
      if (!isNaN(index) && index >= next) { next = index + 1; }
    });
    var marker = section.getAttribute("data-marcador");
    var html = template.innerHTML.split(marker).join(String(next));
    var holder = document.createElement("div");
    holder.innerHTML = html;
    while (holder.firstChild) { list.appendChild(holder.firstChild); }
    var first = list.lastElementChild && list.lastElementChild.querySelector("input, select, textarea");
    if (first && focus) { first.focus(); }
    return true;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("formulario");
    if (form) { setup(form); }
    var filed = document.querySelector("[data-protocolado]");
    if (filed) { forget(filed.getAttribute("data-protocolado")); }
  });
})();
