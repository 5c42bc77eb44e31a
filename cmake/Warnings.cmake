# Compiler warnings shared by every cucpu target; CI turns them into errors.
add_library(cucpu_warnings INTERFACE)
target_compile_options(cucpu_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wno-unused-parameter
  $<$<BOOL:${CUCPU_WERROR}>:-Werror>)
