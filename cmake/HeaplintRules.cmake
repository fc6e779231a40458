# The rules of rules/rules.def (one HL_RULE(cname, "id") line each):
# heaplint_rules(<top> <out_ids> <out_cnames>) sets the two lists, in the
# file's order, and reconfigures when the file changes.
function(heaplint_rules top out_ids out_cnames)
  set(def "${top}/rules/rules.def")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${def}")
  file(STRINGS "${def}" lines REGEX "^HL_RULE\\(")
  set(ids)
  set(cnames)
  foreach(line ${lines})
    if(NOT line MATCHES "^HL_RULE\\(([a-z0-9_]+), \"([a-z0-9-]+)\"\\)$")
      message(FATAL_ERROR "${def}: not HL_RULE(cname, \"id\"): ${line}")
    endif()
    list(APPEND cnames "${CMAKE_MATCH_1}")
    list(APPEND ids "${CMAKE_MATCH_2}")
  endforeach()
  set(${out_ids} ${ids} PARENT_SCOPE)
  set(${out_cnames} ${cnames} PARENT_SCOPE)
endfunction()
