func.func @f() {
  "mydialect.thing"() : () -> ()
  return
}
