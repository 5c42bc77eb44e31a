# The math tests that failed on NVIDIA in the first run (their ulp bound is
# measured from the exact value), again with each bound widened by 0.5 ulp:
# CUDA states its bounds as the distance from the correctly rounded result.
# Used as -DCUCPU_KERNEL_EXTRA_TESTS=...; the tests are labelled kernel_extra.
cucpu_kernel_test(math_coshf_cr_bound math_f32.cu sweep_coshf GRID 256 BLOCK 256 ARGS "buf:f32[65536]=sweep(-100,100)" buf:f32[65536]=0 EXPECT "1:cosh(0)~2.5ulp")
cucpu_kernel_test(math_expm1f_cr_bound math_f32.cu sweep_expm1f GRID 256 BLOCK 256 ARGS "buf:f32[65536]=sweep(-110,100)" buf:f32[65536]=0 EXPECT "1:expm1(0)~1.5ulp")
cucpu_kernel_test(math_erfcinvf_cr_bound math_f32.cu sweep_erfcinvf GRID 256 BLOCK 256 ARGS "buf:f32[65536]=sweep(0,2)" buf:f32[65536]=0 EXPECT "1:erfcinv(0)~2.5ulp")
cucpu_kernel_test(math_sin_cr_bound math_f64.cu sweep_sin GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-100,100)" buf:f64[65536]=0 EXPECT "1:sin(0)~1.5ulp")
cucpu_kernel_test(math_sin_full_cr_bound math_f64.cu sweep_sin GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-inf,inf)" buf:f64[65536]=0 EXPECT "1:sin(0)~1.5ulp")
cucpu_kernel_test(math_cos_cr_bound math_f64.cu sweep_cos GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-100,100)" buf:f64[65536]=0 EXPECT "1:cos(0)~1.5ulp")
cucpu_kernel_test(math_cos_full_cr_bound math_f64.cu sweep_cos GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-inf,inf)" buf:f64[65536]=0 EXPECT "1:cos(0)~1.5ulp")
cucpu_kernel_test(math_acos_cr_bound math_f64.cu sweep_acos GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1.5,1.5)" buf:f64[65536]=0 EXPECT "1:acos(0)~1.5ulp")
cucpu_kernel_test(math_sinh_cr_bound math_f64.cu sweep_sinh GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-720,720)" buf:f64[65536]=0 EXPECT "1:sinh(0)~1.5ulp")
cucpu_kernel_test(math_cosh_cr_bound math_f64.cu sweep_cosh GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-720,720)" buf:f64[65536]=0 EXPECT "1:cosh(0)~1.5ulp")
cucpu_kernel_test(math_tanh_cr_bound math_f64.cu sweep_tanh GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-40,40)" buf:f64[65536]=0 EXPECT "1:tanh(0)~1.5ulp")
cucpu_kernel_test(math_atanh_cr_bound math_f64.cu sweep_atanh GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1.5,1.5)" buf:f64[65536]=0 EXPECT "1:atanh(0)~2.5ulp")
cucpu_kernel_test(math_expm1_cr_bound math_f64.cu sweep_expm1 GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-750,720)" buf:f64[65536]=0 EXPECT "1:expm1(0)~1.5ulp")
cucpu_kernel_test(math_log2_cr_bound math_f64.cu sweep_log2 GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1,inf)" buf:f64[65536]=0 EXPECT "1:log2(0)~1.5ulp")
cucpu_kernel_test(math_log10_cr_bound math_f64.cu sweep_log10 GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1,inf)" buf:f64[65536]=0 EXPECT "1:log10(0)~1.5ulp")
cucpu_kernel_test(math_log1p_cr_bound math_f64.cu sweep_log1p GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-2,inf)" buf:f64[65536]=0 EXPECT "1:log1p(0)~1.5ulp")
cucpu_kernel_test(math_sinpi_cr_bound math_f64.cu sweep_sinpi GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1000,1000)" buf:f64[65536]=0 EXPECT "1:sinpi(0)~1.5ulp")
cucpu_kernel_test(math_cospi_cr_bound math_f64.cu sweep_cospi GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-1000,1000)" buf:f64[65536]=0 EXPECT "1:cospi(0)~1.5ulp")
cucpu_kernel_test(math_sincos_cr_bound math_f64.cu sweep_sincos GRID 256 BLOCK 256 ARGS "buf:f64[65536]=sweep(-100,100)" buf:f64[65536]=0 buf:f64[65536]=0 EXPECT "1:sin(0)~1.5ulp" "2:cos(0)~1.5ulp")
